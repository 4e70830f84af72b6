import { services } from '../../../composition/services';
import { errors, json } from '../../../shared/platform/http/answers';
import { emailParam } from '../../../shared/platform/http/path-params';
import { defineRoute } from '../../../shared/platform/http/route';
import { suppressionAnswerSchema, suppressionExample } from '../../../shared/mail-pipeline/suppression/suppression-answers';
import { presentSuppression, requireSuppression } from '../../../shared/mail-pipeline/suppression/suppression-service';
import { suppressionsReadAccess } from './suppressions-access';

/** `GET /v1/suppressions/{email}`: the entry of one address. */
export const getSuppression = defineRoute({
  method: 'GET',
  path: '/v1/suppressions/{email}',
  auth: 'project',
  summary: 'One suppressed address',
  answers: {
    200: json(suppressionAnswerSchema, 'The address\'s entry', { success: true, data: suppressionExample }),
    ...errors('project', {
      400: 'The path names no valid email address',
      404: 'The address is not suppressed',
    }),
  },
  access: suppressionsReadAccess,
  // API Gateway hands path parameters over decoded: decoding again would misread a `%` in an address.
  handle: async (request) => {
    const email = emailParam(request.params).toLowerCase();
    const entry = await requireSuppression(services(), request.caller.project.id, email);
    return { status: 200, body: { success: true, data: presentSuppression(entry) } };
  },
});
