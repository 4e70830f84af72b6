import { services } from '../../../composition/services';
import { dmarcQuerySchema, dmarcSummaryExample, dmarcSummarySchema } from '../../../shared/identities/dmarc/dmarc-answers';
import { domainDmarc } from '../../../shared/identities/dmarc/dmarc-service';
import { requireDomain } from '../../../shared/identities/domains/domain-service';
import { errors, json } from '../../../shared/platform/http/answers';
import { defineRoute } from '../../../shared/platform/http/route';
import { pathDomain, projectOf, readDomains } from './identity-view';

/** `GET /domains/{domain}/dmarc`: what receivers' DMARC aggregate reports say of the domain, and the policy advice. */
export const domainDmarcRoute = defineRoute({
  method: 'GET',
  path: '/domains/{domain}/dmarc',
  auth: 'project',
  summary: 'DMARC reports of a domain',
  description:
    'Receivers (Google, Microsoft, Yahoo...) mail daily aggregate reports to the `rua` address of the domain\'s DMARC record. ' +
    'This reads them over the last `days` days (default 30, at most 90): the share of mail claiming the domain that passed DMARC each day, ' +
    'the source IPs whose mail failed and whether they are Amazon SES, and when to move to `p=quarantine`, then `p=reject`.',
  query: dmarcQuerySchema,
  answers: {
    200: json(dmarcSummarySchema, 'The reports of the window, the failing sources and the advice', dmarcSummaryExample),
    ...errors('project', {
      400: 'The path names no valid domain, or days is not a whole number from 1 to 90',
      404: 'The project has no such domain (DOMAIN_NOT_FOUND)',
    }),
  },
  access: readDomains,
  handle: async (request) => {
    const deps = services();
    const domain = await requireDomain(deps, projectOf(request), pathDomain(request));
    return { status: 200, body: await domainDmarc(deps, domain.project_id, domain.domain, request.query) };
  },
});
