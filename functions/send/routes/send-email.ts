import { services } from '../../../composition/services';
import { errors, json } from '../../../shared/platform/http/answers';
import { defineRoute } from '../../../shared/platform/http/route';
import { acceptSingleSend } from '../../../shared/mail-pipeline/sending/single-send';
import { sendAnswerSchema } from '../../../shared/mail-pipeline/sending/send-answers';
import { sendEmailBodySchema, toSingleSend } from '../../../shared/mail-pipeline/sending/send-email-request';
import { sendAccess } from './send-access';

/** `POST /v1/send-email` (4.1): one mail to up to 50 recipients. Part 8 does not give it Idempotency-Key; we honour it (docs/idempotency.md). */
export const sendEmail = defineRoute({
  method: 'POST',
  path: '/v1/send-email',
  auth: 'project',
  idempotency: 'supported',
  summary: 'Send one email to up to 50 recipients',
  body: sendEmailBodySchema,
  bodyExample: { recipient_email: 'ada@example.com', sender_email: 'hello@mail.example.com', subject: 'Welcome', html_body: '<p>Hello Ada</p>' },
  answers: {
    200: json(sendAnswerSchema, 'Queued', { message: 'Email queued for sending', email_id: '3f2b8c1e-9a4d-4f6b-8e2a-7c5d1b0a9e34', project_id: '0b7e4f2a-5c1d-4e8b-9a3f-6d2c1b0e9f87' }),
    ...errors('project', {
      403: 'The project is disabled (PROJECT_DISABLED)',
      502: 'The mail could not be queued; nothing was accepted',
    }),
  },
  access: sendAccess,
  handle: async (request) => ({ status: 200, body: await acceptSingleSend(services(), request.caller, toSingleSend(request.body)) }),
});
