import { services } from '../../../composition/services';
import { errors, json } from '../../../shared/platform/http/answers';
import { defineRoute } from '../../../shared/platform/http/route';
import { publicBaseUrl } from '../../../shared/platform/http/api-types';
import { domainParam } from '../../../shared/platform/http/path-params';
import { partnerDomainVerifiedSchema } from '../../../shared/tenancy/partner/partner-answers';
import { verifyDomainPack } from '../../../shared/tenancy/partner/partner-domains';
import { ownedProject, PROJECT_NOT_FOUND } from './owned-project';
import { verificationAccess } from './partner-access';
import { domainPackExample } from './partner-examples';

/** `POST /v1/partner/projects/{projectId}/domains/{domain}/verify` (4.13): checks identity, DKIM and return path now. */
export const verifyDomain = defineRoute({
  method: 'POST',
  path: '/v1/partner/projects/{projectId}/domains/{domain}/verify',
  auth: 'partner',
  summary: 'Force verification',
  description: 'Checks identity, DKIM and return path now (publishing `domain.*` events on a transition); reply and tracking domains are not checked, their state comes back read-only.',
  answers: {
    200: json(partnerDomainVerifiedSchema, 'The domain pack after the check, with the provider\'s words', {
      ...domainPackExample,
      details: { domain_verification: 'Success', dkim_verification: 'Success', mail_from_status: 'Success' },
    }),
    ...errors('partner', {
      400: 'The path\'s domain is not a domain name (INVALID_INPUT)',
      404: `${PROJECT_NOT_FOUND}, or the project has no such domain (DOMAIN_NOT_FOUND)`,
      409: 'Another project verified the domain first (DOMAIN_TAKEN), or it is being verified concurrently (DOMAIN_BUSY)',
    }),
  },
  access: verificationAccess,
  handle: async (request) => {
    const project = await ownedProject(request);
    return { status: 200, body: await verifyDomainPack(services(), project.id, domainParam(request.params), publicBaseUrl(request)) };
  },
});
