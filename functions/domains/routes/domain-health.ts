import { services } from '../../../composition/services';
import { domainExamples, domainHealthSchema } from '../../../shared/identities/domains/domain-answers';
import { domainHealth } from '../../../shared/identities/domains/domain-health';
import { json } from '../../../shared/platform/http/answers';
import { defineRoute } from '../../../shared/platform/http/route';
import { projectOf, readDomains } from './identity-view';

/** `GET /domains/health` (4.12): every domain's status, sends and permanent-bounce rate over 30 days, with what to fix. */
export const domainHealthRoute = defineRoute({
  method: 'GET',
  path: '/domains/health',
  auth: 'project',
  summary: 'Health of every domain of the project',
  description: '`can_send: true` with `status: critical` means mail goes out unsigned by the domain\'s own DKIM.',
  answers: {
    200: json(domainHealthSchema, 'Every domain of the project with its health', domainExamples.health),
  },
  access: { ...readDomains, sesTenants: 'read' },
  handle: async (request) => ({ status: 200, body: await domainHealth(services(), projectOf(request)) }),
});
