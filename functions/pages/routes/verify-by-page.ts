import { services } from '../../../composition/services';
import { errors, json } from '../../../shared/platform/http/answers';
import { defineRoute } from '../../../shared/platform/http/route';
import { pageCheckExample, pageCheckSchema } from '../../../shared/identities/pages/verification-answers';
import { verifyByPageToken } from '../../../shared/identities/pages/verification-service';
import { verifyResult } from '../../../shared/identities/pages/verification-view';

/** `POST /verify/{token}`: the page's "Verify now" button; checks the domain with the provider (its button calls SES, hence its own throttle). */
export const verifyByPage = defineRoute({
  method: 'POST',
  path: '/verify/{token}',
  auth: 'public',
  throttle: 'verify',
  summary: 'The verification page\'s verify button',
  answers: {
    200: json(pageCheckSchema, 'The domain and its records after the check', pageCheckExample),
    ...errors('public', {
      404: 'The link is not valid',
      409: 'Another project verified the domain first (DOMAIN_TAKEN); or checks raced (DOMAIN_BUSY)',
    }),
  },
  // checkDomain: reads the SES identity, writes the domain, publishes the events a transition decides.
  // The settings are those the records' hosts read (dns-records.ts providerHosts): domain-service.ts,
  // which this route loads, uses them on registration; the function gets what the code it bundles reads.
  access: { table: 'readWrite', enqueue: ['events'], sesIdentities: 'read', settings: ['RECEIVING', 'INBOUND_DOMAIN', 'TRACKING_HOST', 'DMARC_REPORTS_DOMAIN'] },
  handle: async (request) => {
    const checked = await verifyByPageToken(services(), request.params.token);
    return { status: 200, headers: { 'cache-control': 'no-store' }, body: verifyResult(checked) };
  },
});
