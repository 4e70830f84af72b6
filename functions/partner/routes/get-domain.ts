import { services } from '../../../composition/services';
import { errors, json } from '../../../shared/platform/http/answers';
import { defineRoute } from '../../../shared/platform/http/route';
import { publicBaseUrl } from '../../../shared/platform/http/api-types';
import { domainParam } from '../../../shared/platform/http/path-params';
import { partnerDomainSchema } from '../../../shared/tenancy/partner/partner-answers';
import { readDomainPack } from '../../../shared/tenancy/partner/partner-domains';
import { ownedProject, PROJECT_NOT_FOUND } from './owned-project';
import { partnerReadAccess } from './partner-access';
import { domainPackExample } from './partner-examples';

/** `GET /v1/partner/projects/{projectId}/domains/{domain}` (4.13): record-by-record state as stored, no lookups. */
export const getDomain = defineRoute({
  method: 'GET',
  path: '/v1/partner/projects/{projectId}/domains/{domain}',
  auth: 'partner',
  summary: 'One domain with its records',
  answers: {
    200: json(partnerDomainSchema, 'The domain pack as last checked', { ...domainPackExample, skipped: [] }),
    ...errors('partner', {
      400: 'The path\'s domain is not a domain name (INVALID_INPUT)',
      404: `${PROJECT_NOT_FOUND}, or the project has no such domain (DOMAIN_NOT_FOUND)`,
    }),
  },
  access: partnerReadAccess,
  handle: async (request) => {
    const project = await ownedProject(request);
    return { status: 200, body: { ...(await readDomainPack(services(), project.id, domainParam(request.params), publicBaseUrl(request))), skipped: [] } };
  },
});
