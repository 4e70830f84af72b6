import { services } from '../../../composition/services';
import { errors, json } from '../../../shared/platform/http/answers';
import { defineRoute } from '../../../shared/platform/http/route';
import { suppressionsAddedAnswerSchema } from '../../../shared/mail-pipeline/suppression/suppression-answers';
import { addSuppressionsBodySchema } from '../../../shared/mail-pipeline/suppression/suppression-request';
import { addManually } from '../../../shared/mail-pipeline/suppression/suppression-service';
import { suppressionsAddAccess } from './suppressions-access';

/** `POST /v1/suppressions`: addresses suppressed by hand (`reason: manual`, `source: api`). */
export const addSuppressions = defineRoute({
  method: 'POST',
  path: '/v1/suppressions',
  auth: 'project',
  summary: 'Suppress addresses',
  body: addSuppressionsBodySchema,
  bodyExample: { emails: ['former.customer@example.com', 'do-not-mail@example.org'], description: 'Asked by phone not to be mailed' },
  answers: {
    201: json(suppressionsAddedAnswerSchema, 'Added: the new entries, and the addresses already listed', {
      success: true,
      added: ['former.customer@example.com'],
      already: ['do-not-mail@example.org'],
    }),
    ...errors('project', { 400: 'No `email` or `emails`, more than 1,000 addresses, or an invalid address (named)' }),
  },
  access: suppressionsAddAccess,
  handle: async (request) => ({ status: 201, body: { success: true, ...(await addManually(services(), request.caller.project, request.body)) } }),
});
