import { services } from '../../../composition/services';
import { errors, json } from '../../../shared/platform/http/answers';
import { defineRoute } from '../../../shared/platform/http/route';
import { partnerProjectOverviewSchema } from '../../../shared/tenancy/partner/partner-answers';
import { reputationExamples } from '../../../shared/identities/reputation/reputation-answers';
import { projectOverview } from '../../../shared/tenancy/partner/partner-projects';
import { ownedProject, PROJECT_NOT_FOUND } from './owned-project';
import { projectOverviewAccess } from './partner-access';
import { projectExample, senderExample } from './partner-examples';

/** `GET /v1/partner/projects/{projectId}` (4.13): the project with its domains, senders and health. */
export const getProject = defineRoute({
  method: 'GET',
  path: '/v1/partner/projects/{projectId}',
  auth: 'partner',
  summary: 'One project with its domains, senders and health',
  answers: {
    200: json(partnerProjectOverviewSchema, 'The project', {
      project: projectExample,
      domains: [{ domain: 'mail.acme.example', identity_id: '7c9e2b4a-1d3f-4a6b-8e5c-2f1a0b9d8c7e', verification_status: 'verified', can_send: true }],
      senders: [senderExample],
      health: { can_send: true, status: 'healthy', issues: [], reputation: reputationExamples.healthy },
    }),
    ...errors('partner', { 404: PROJECT_NOT_FOUND }),
  },
  access: projectOverviewAccess,
  handle: async (request) => ({ status: 200, body: await projectOverview(services(), await ownedProject(request)) }),
});
