import { services } from '../../../composition/services';
import { dmarcQuerySchema, dmarcSummaryExample, dmarcSummarySchema } from '../../../shared/identities/dmarc/dmarc-answers';
import { domainDmarc } from '../../../shared/identities/dmarc/dmarc-service';
import { requireDomain } from '../../../shared/identities/domains/domain-service';
import { errors, json } from '../../../shared/platform/http/answers';
import { defineRoute } from '../../../shared/platform/http/route';
import { domainParam } from '../../../shared/platform/http/path-params';
import { invalidInput } from '../../../shared/tenancy/partner/project-request';
import { ownedProject, PROJECT_NOT_FOUND } from './owned-project';
import { partnerReadAccess } from './partner-access';

/** `GET /v1/partner/projects/{projectId}/domains/{domain}/dmarc`: the partner twin of `GET /domains/{domain}/dmarc`. */
export const partnerDomainDmarc = defineRoute({
  method: 'GET',
  path: '/v1/partner/projects/{projectId}/domains/{domain}/dmarc',
  auth: 'partner',
  summary: 'DMARC reports of a client domain',
  description:
    'What receivers\' DMARC aggregate reports say of one domain of the project over the last `days` days (default 30, at most 90): ' +
    'the pass rate per day, the failing sources and whether they are Amazon SES, and when to move to `p=quarantine`, then `p=reject`. The same answer as the project route.',
  query: dmarcQuerySchema,
  refuse: invalidInput,
  answers: {
    200: json(dmarcSummarySchema, 'The reports of the window, the failing sources and the advice', dmarcSummaryExample),
    ...errors('partner', {
      400: 'The path\'s domain is not a domain name, or days is not a whole number from 1 to 90 (INVALID_INPUT)',
      404: `${PROJECT_NOT_FOUND}, or the project has no such domain (DOMAIN_NOT_FOUND)`,
    }),
  },
  access: partnerReadAccess,
  handle: async (request) => {
    const project = await ownedProject(request);
    const deps = services();
    const domain = await requireDomain(deps, project.id, domainParam(request.params));
    return { status: 200, body: await domainDmarc(deps, project.id, domain.domain, request.query) };
  },
});
