import { services } from '../../../composition/services';
import { errors, json } from '../../../shared/platform/http/answers';
import { defineRoute } from '../../../shared/platform/http/route';
import { partnerProjectAnswerSchema } from '../../../shared/tenancy/partner/partner-answers';
import { patchPartnerProject } from '../../../shared/tenancy/partner/partner-projects';
import { invalidInput, orEmptyBody, projectPatchBodySchema, toProjectPatch } from '../../../shared/tenancy/partner/project-request';
import { ownedProject, PROJECT_NOT_FOUND } from './owned-project';
import { partnerWriteAccess } from './partner-access';
import { projectExample } from './partner-examples';

/** `PATCH /v1/partner/projects/{projectId}` (4.13): changes only the sent fields, also on a disabled project. */
export const updateProject = defineRoute({
  method: 'PATCH',
  path: '/v1/partner/projects/{projectId}',
  auth: 'partner',
  summary: 'Update a project',
  description: 'Only the sent fields change; null clears one. `webhook_url` and `inbound_webhook_url` are independent. Works on a disabled project.',
  body: orEmptyBody(projectPatchBodySchema),
  bodyExample: { timezone: 'Europe/Paris', webhook_url: 'https://hooks.acme.example/mail' },
  refuse: invalidInput,
  answers: {
    200: json(partnerProjectAnswerSchema, 'The project as it now is', { project: projectExample }),
    ...errors('partner', {
      400: 'Invalid body: INVALID_INPUT, MISSING_NAME, INVALID_TIMEZONE, INVALID_COUNTRY, or no recognised field (EMPTY_PATCH)',
      404: PROJECT_NOT_FOUND,
    }),
  },
  access: partnerWriteAccess,
  handle: async (request) => ({ status: 200, body: await patchPartnerProject(services(), await ownedProject(request), toProjectPatch(request.body)) }),
});
