import { services } from '../../../composition/services';
import { errors, json } from '../../../shared/platform/http/answers';
import { emailParam } from '../../../shared/platform/http/path-params';
import { defineRoute } from '../../../shared/platform/http/route';
import { suppressionRemovedAnswerSchema } from '../../../shared/mail-pipeline/suppression/suppression-answers';
import { removeOne } from '../../../shared/mail-pipeline/suppression/suppression-service';
import { suppressionsRemoveAccess } from './suppressions-access';

/** `DELETE /v1/suppressions/{email}`: one address taken off the list (suppression.removed). */
export const deleteSuppression = defineRoute({
  method: 'DELETE',
  path: '/v1/suppressions/{email}',
  auth: 'project',
  summary: 'Remove one address from the suppression list',
  answers: {
    200: json(suppressionRemovedAnswerSchema, 'Removed', { success: true, email: 'bounced@example.com', removed: true }),
    ...errors('project', {
      400: 'The path names no valid email address',
      404: 'The address is not suppressed',
    }),
  },
  access: suppressionsRemoveAccess,
  // API Gateway hands path parameters over decoded: decoding again would misread a `%` in an address.
  handle: async (request) => ({ status: 200, body: { success: true, ...(await removeOne(services(), request.caller.project, emailParam(request.params))) } }),
});
