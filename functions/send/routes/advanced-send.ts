import { services } from '../../../composition/services';
import { errors, json } from '../../../shared/platform/http/answers';
import { publicBaseUrl } from '../../../shared/platform/http/api-types';
import { defineRoute } from '../../../shared/platform/http/route';
import { acceptAdvancedSend } from '../../../shared/mail-pipeline/sending/advanced-send';
import { advancedSendBodySchema, toAdvancedSend } from '../../../shared/mail-pipeline/sending/advanced-send-request';
import { advancedSendAnswerSchema } from '../../../shared/mail-pipeline/sending/send-answers';
import { sendAccess } from './send-access';

/** `POST /send-email` (4.5): scheduling, stored templates, dry runs. */
export const advancedSend = defineRoute({
  method: 'POST',
  path: '/send-email',
  auth: 'project',
  idempotency: 'supported',
  summary: 'Advanced send: scheduling, stored templates, dry runs',
  body: advancedSendBodySchema,
  bodyExample: { recipient: 'ada@example.com', sender: 'hello@mail.example.com', subject: 'Hi {{name}}', html: '<p>Hi {{name}}</p>', data: { name: 'Ada' }, scheduled_at: 'tomorrow at 9am', timezone: 'Europe/London' },
  answers: {
    200: json(advancedSendAnswerSchema, 'Queued, scheduled, or a dry run', {
      success: true,
      scheduled: true,
      scheduled_send_id: '9d3e2c1b-4a5f-4e6d-8c7b-1a2b3c4d5e6f',
      scheduled_for: '2026-11-27T09:00:00.000Z',
      scheduled_for_local: '2026-11-27 09:00',
      timezone: 'Europe/London',
      message: 'Email scheduled for 2026-11-27 09:00 (Europe/London)',
    }),
    ...errors('project', {
      403: 'The project is disabled (PROJECT_DISABLED)',
      404: 'No template with this id',
      422: 'The template renders to nothing, or does not compile',
      502: 'The mail could not be queued; nothing was accepted',
    }),
  },
  access: sendAccess,
  handle: async (request) => ({
    status: 200,
    body: await acceptAdvancedSend(services(), request.caller, toAdvancedSend(request.body, request.headers), publicBaseUrl(request)),
  }),
});
