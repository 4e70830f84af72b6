import { services } from '../../../composition/services';
import { domainExamples, domainRecreatedSchema } from '../../../shared/identities/domains/domain-answers';
import { recreateDomain } from '../../../shared/identities/domains/domain-service';
import { errors, json } from '../../../shared/platform/http/answers';
import { defineRoute } from '../../../shared/platform/http/route';
import { identityView, pathDomain, projectOf, RECORD_SETTINGS } from './identity-view';

/** `POST /domains/{domain}/recreate` (4.12): for DKIM stuck at the provider, a new identity with new DKIM tokens. */
export const recreateDomainRoute = defineRoute({
  method: 'POST',
  path: '/domains/{domain}/recreate',
  auth: 'project',
  summary: 'Recreate a failed identity',
  description: 'Deletes the SES identity and creates it anew: the DKIM records change and the domain goes back to pending.',
  answers: {
    200: json(domainRecreatedSchema, 'Recreated: publish the new DKIM records', domainExamples.recreated),
    ...errors('project', {
      400: 'The path names no valid domain',
      404: 'The project has no such domain (DOMAIN_NOT_FOUND)',
      409: 'The domain is verified (DOMAIN_VERIFIED); another project verified it (DOMAIN_TAKEN); its identity is not this project\'s own (IDENTITY_NOT_OWNED); or it changed meanwhile (DOMAIN_BUSY)',
    }),
  },
  access: { table: 'readWrite', sesIdentities: 'manage', sesTenants: 'manage', settings: [...RECORD_SETTINGS] },
  handle: async (request) => {
    const domain = await recreateDomain(services(), projectOf(request), pathDomain(request));
    return { status: 200, body: { success: true, recreated: true, ...(await identityView(request, domain)) } };
  },
});
