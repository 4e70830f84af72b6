import { services } from '../../../composition/services';
import { errors, json } from '../../../shared/platform/http/answers';
import { defineRoute } from '../../../shared/platform/http/route';
import { partnerProjectAnswerSchema } from '../../../shared/tenancy/partner/partner-answers';
import { reactivatePartnerProject } from '../../../shared/tenancy/partner/partner-projects';
import { ownedProject, PROJECT_NOT_FOUND, UNREAD_BODY_REFUSED } from './owned-project';
import { partnerWriteAccess } from './partner-access';
import { projectExample } from './partner-examples';

/** `POST /v1/partner/projects/{projectId}/reactivate` (4.13): idempotent, within the organization's quota. */
export const reactivateProject = defineRoute({
  method: 'POST',
  path: '/v1/partner/projects/{projectId}/reactivate',
  auth: 'partner',
  summary: 'Reactivate a disabled project',
  answers: {
    200: json(partnerProjectAnswerSchema, 'The project, active', { project: projectExample }),
    ...errors('partner', {
      400: UNREAD_BODY_REFUSED,
      403: 'Reactivating it would exceed the organization\'s project quota (MAX_PROJECTS_REACHED)',
      404: PROJECT_NOT_FOUND,
    }),
  },
  access: partnerWriteAccess,
  handle: async (request) => ({ status: 200, body: await reactivatePartnerProject(services(), await ownedProject(request)) }),
});
