import { services } from '../../../composition/services';
import { errors, json } from '../../../shared/platform/http/answers';
import { publicBaseUrl } from '../../../shared/platform/http/api-types';
import { defineRoute } from '../../../shared/platform/http/route';
import { templateSendAnswerSchema } from '../../../shared/mail-pipeline/sending/send-answers';
import { sendTemplateEmail as acceptTemplateSend } from '../../../shared/mail-pipeline/sending/template-send';
import { templateSendBodySchema, toTemplateSend } from '../../../shared/mail-pipeline/sending/template-send-request';
import { sendAccess } from './send-access';

/** `POST /v1/send-template-email` (4.2): a stored template, or inline HTML, to one recipient. */
export const sendTemplateEmail = defineRoute({
  method: 'POST',
  path: '/v1/send-template-email',
  auth: 'project',
  idempotency: 'supported',
  summary: 'Send a stored template (or inline HTML) to one recipient',
  body: templateSendBodySchema,
  bodyExample: { template_id: '6f1c2b9e-3a4d-4e5f-8a9b-0c1d2e3f4a5b', recipient_email: 'ada@example.com', sender_email: 'hello@mail.example.com', variables: { name: 'Ada' } },
  answers: {
    200: json(templateSendAnswerSchema, 'Queued, or skipped for a suppressed recipient', {
      message: 'Email queued for sending',
      email_id: '3f2b8c1e-9a4d-4f6b-8e2a-7c5d1b0a9e34',
      project_id: '0b7e4f2a-5c1d-4e8b-9a3f-6d2c1b0e9f87',
      template_id: '6f1c2b9e-3a4d-4e5f-8a9b-0c1d2e3f4a5b',
      template_internal_id: null,
      variables_used: ['name'],
      used_cached_html: true,
    }),
    ...errors('project', {
      403: 'The project is disabled (PROJECT_DISABLED)',
      404: 'No template with this id or internal id',
      422: 'The template renders to nothing (TEMPLATE_EMPTY), or does not compile',
      502: 'The mail could not be queued; nothing was accepted',
    }),
  },
  access: sendAccess,
  handle: async (request) => ({
    status: 200,
    body: await acceptTemplateSend(services(), request.caller, toTemplateSend(request.body), publicBaseUrl(request)),
  }),
});
