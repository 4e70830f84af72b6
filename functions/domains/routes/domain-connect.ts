import { services } from '../../../composition/services';
import { domainConnectSchema, domainExamples } from '../../../shared/identities/domains/domain-answers';
import { discoverDomainConnect } from '../../../shared/identities/domains/domain-connect';
import { requireDomain } from '../../../shared/identities/domains/domain-service';
import { errors, json } from '../../../shared/platform/http/answers';
import { defineRoute } from '../../../shared/platform/http/route';
import { pathDomain, projectOf, readDomains } from './identity-view';

/** `GET /domains/{domain}/domain-connect` (4.12): whether the DNS provider can create the records in one click, and the link that does. */
export const domainConnect = defineRoute({
  method: 'GET',
  path: '/domains/{domain}/domain-connect',
  auth: 'project',
  summary: 'One-click DNS setup link',
  description: 'Any failure to discover Domain Connect answers `supported: false`: the records can always be copied by hand.',
  answers: {
    200: json(domainConnectSchema, 'Supported (with `apply_url`) or not', domainExamples.domainConnect),
    ...errors('project', {
      400: 'The path names no valid domain',
      404: 'The project has no such domain (DOMAIN_NOT_FOUND)',
    }),
  },
  // The discovery is DNS and HTTPS to the provider: no AWS beyond reading the domain.
  access: readDomains,
  handle: async (request) => {
    const deps = services();
    const domain = await requireDomain(deps, projectOf(request), pathDomain(request));
    return { status: 200, body: { success: true, domain: domain.domain, ...(await discoverDomainConnect(deps, domain)) } };
  },
});
