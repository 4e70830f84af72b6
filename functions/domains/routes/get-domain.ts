import { services } from '../../../composition/services';
import { domainViewExample, domainViewSchema } from '../../../shared/identities/domains/domain-answers';
import { requireDomain } from '../../../shared/identities/domains/domain-service';
import { presentSender, sendersOnDomain } from '../../../shared/identities/domains/sender-service';
import { errors, json } from '../../../shared/platform/http/answers';
import { defineRoute } from '../../../shared/platform/http/route';
import { identityView, pathDomain, projectOf, readDomains } from './identity-view';

/** `GET /domains/{domain}`: one domain as stored, with everything its page shows (the console's domain view). */
export const getDomainRoute = defineRoute({
  method: 'GET',
  path: '/domains/{domain}',
  auth: 'project',
  summary: 'One sending domain',
  description:
    'Stored state only, no lookups: the identity and its records, its reply and tracking subdomains with their records, the provider\'s verdicts at the last check, and the project\'s senders on the domain. ' +
    '`POST /domains/{domain}/verify` checks again.',
  answers: {
    200: json(domainViewSchema, 'The domain as last checked', domainViewExample),
    ...errors('project', {
      400: 'The path names no valid domain',
      404: 'The project has no such domain (DOMAIN_NOT_FOUND)',
    }),
  },
  access: readDomains,
  handle: async (request) => {
    const deps = services();
    const projectId = projectOf(request);
    const domain = await requireDomain(deps, projectId, pathDomain(request));
    const senders = await sendersOnDomain(deps, projectId, domain.domain);
    return {
      status: 200,
      body: {
        success: true,
        ...(await identityView(request, domain)),
        send_ready: Boolean(domain.send_ready_at),
        details: domain.details ?? null,
        last_checked_at: domain.last_checked_at,
        created_at: domain.created_at,
        senders: senders.sort((a, b) => a.from_email.localeCompare(b.from_email)).map((s) => presentSender(s, domain)),
      },
    };
  },
});
