import { services } from '../../../composition/services';
import { errors, json } from '../../../shared/platform/http/answers';
import { defineRoute } from '../../../shared/platform/http/route';
import { partnerProjectDisabledSchema } from '../../../shared/tenancy/partner/partner-answers';
import { disablePartnerProject } from '../../../shared/tenancy/partner/partner-projects';
import { ownedProject, PROJECT_NOT_FOUND, UNREAD_BODY_REFUSED } from './owned-project';
import { partnerWriteAccess } from './partner-access';

/** `DELETE /v1/partner/projects/{projectId}` (4.13): a soft disable, idempotent. */
export const disableProject = defineRoute({
  method: 'DELETE',
  path: '/v1/partner/projects/{projectId}',
  auth: 'partner',
  summary: 'Disable a project',
  description: 'Sending stops; nothing is deleted and the keys still read. Disabling a disabled project changes nothing.',
  answers: {
    200: json(partnerProjectDisabledSchema, 'Disabled', { project_id: '0b7e4f2a-5c1d-4e8b-9a3f-6d2c1b0e9f87', disabled: true }),
    ...errors('partner', { 400: UNREAD_BODY_REFUSED, 404: PROJECT_NOT_FOUND }),
  },
  access: partnerWriteAccess,
  handle: async (request) => ({ status: 200, body: await disablePartnerProject(services(), await ownedProject(request)) }),
});
