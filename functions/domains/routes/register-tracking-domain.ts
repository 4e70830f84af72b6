import { services } from '../../../composition/services';
import { domainExamples, trackingDomainRegisteredSchema } from '../../../shared/identities/domains/domain-answers';
import { subdomainBodySchema } from '../../../shared/identities/domains/subdomain-request';
import { presentSubdomain, registerSubdomain } from '../../../shared/identities/domains/subdomains';
import { errors, json } from '../../../shared/platform/http/answers';
import { defineRoute } from '../../../shared/platform/http/route';
import { projectOf, RECORD_SETTINGS } from './identity-view';

/** `POST /domains/tracking`: the tracking subdomain of a sending domain, for links and opens on the sender's own name. */
export const registerTrackingDomain = defineRoute({
  method: 'POST',
  path: '/domains/tracking',
  auth: 'project',
  summary: 'Set up the tracking domain',
  description: 'Takes the sending domain or its `track.` subdomain. One already registered is returned as it is, with 200 and `existing: true`.',
  body: subdomainBodySchema,
  bodyExample: { domain: 'mail.example.com' },
  answers: {
    200: json(trackingDomainRegisteredSchema, 'Registered before: returned as it is', { ...domainExamples.tracking, existing: true }),
    201: json(trackingDomainRegisteredSchema, 'Registered: the CNAME record to publish', domainExamples.tracking),
    ...errors('project', {
      400: 'Invalid request: a missing or invalid domain, or a domain not registered with POST /domains/register',
      409: 'The deployment has no tracking host (TRACKING_NOT_CONFIGURED); or the record could not be written (SUBDOMAIN_FAILED)',
    }),
  },
  access: { table: 'readWrite', settings: [...RECORD_SETTINGS] },
  handle: async (request) => {
    const { subdomain, existing } = await registerSubdomain(services(), projectOf(request), 'tracking', request.body);
    return { status: existing ? 200 : 201, body: { success: true, domain: subdomain.parent_domain, tracking_domain: presentSubdomain(subdomain), existing } };
  },
});
