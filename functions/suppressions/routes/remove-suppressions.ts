import { services } from '../../../composition/services';
import { errors, json } from '../../../shared/platform/http/answers';
import { defineRoute } from '../../../shared/platform/http/route';
import { suppressionsRemovedAnswerSchema } from '../../../shared/mail-pipeline/suppression/suppression-answers';
import { suppressionEmailsBodySchema } from '../../../shared/mail-pipeline/suppression/suppression-request';
import { removeAddresses, toSuppressionEmails } from '../../../shared/mail-pipeline/suppression/suppression-service';
import { suppressionsRemoveAccess } from './suppressions-access';

/** `POST /v1/suppressions/remove`: addresses taken off the list; suppression.removed for each, up to 200 a call. */
export const removeSuppressions = defineRoute({
  method: 'POST',
  path: '/v1/suppressions/remove',
  auth: 'project',
  summary: 'Remove addresses from the suppression list',
  body: suppressionEmailsBodySchema,
  bodyExample: { emails: ['bounced@example.com', 'never-listed@example.org'] },
  answers: {
    200: json(suppressionsRemovedAnswerSchema, 'The addresses removed, and those that were not on the list', {
      success: true,
      removed: ['bounced@example.com'],
      not_found: ['never-listed@example.org'],
    }),
    ...errors('project', { 400: 'No `email` or `emails`, more than 1,000 addresses, or an invalid address (named)' }),
  },
  access: suppressionsRemoveAccess,
  handle: async (request) => ({
    status: 200,
    body: { success: true, ...(await removeAddresses(services(), request.caller.project, toSuppressionEmails(request.body), 'api')) },
  }),
});
