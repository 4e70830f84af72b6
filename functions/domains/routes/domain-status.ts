import { services } from '../../../composition/services';
import { domainExamples, domainStatusSchema } from '../../../shared/identities/domains/domain-answers';
import { requireDomain } from '../../../shared/identities/domains/domain-service';
import { errors, json } from '../../../shared/platform/http/answers';
import { defineRoute } from '../../../shared/platform/http/route';
import { pathDomain, projectOf, readDomains } from './identity-view';

/** `GET /domains/{domain}/status` (4.12): whether the domain can send, as stored at the last check. */
export const domainStatus = defineRoute({
  method: 'GET',
  path: '/domains/{domain}/status',
  auth: 'project',
  summary: 'Verification status',
  answers: {
    200: json(domainStatusSchema, 'The domain\'s state at the last check', domainExamples.status),
    ...errors('project', {
      400: 'The path names no valid domain',
      404: 'The project has no such domain (DOMAIN_NOT_FOUND)',
    }),
  },
  access: readDomains,
  handle: async (request) => {
    const domain = await requireDomain(services(), projectOf(request), pathDomain(request));
    return {
      status: 200,
      body: {
        success: true,
        identity_id: domain.identity_id,
        domain: domain.domain,
        verification_status: domain.verification_status,
        can_send: domain.can_send,
        send_ready: Boolean(domain.send_ready_at),
        details: domain.details ?? null,
        last_checked_at: domain.last_checked_at,
      },
    };
  },
});
