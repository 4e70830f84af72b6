import { acceptBatch } from '../../../shared/mail-pipeline/batches/accept-batch';
import { batchAcceptedSchema } from '../../../shared/mail-pipeline/batches/batch-answers';
import { batchBodySchema, toBatchInput } from '../../../shared/mail-pipeline/batches/batch-request';
import { services } from '../../../composition/services';
import { errors, json } from '../../../shared/platform/http/answers';
import { publicBaseUrl } from '../../../shared/platform/http/api-types';
import { defineRoute } from '../../../shared/platform/http/route';

/** `POST /v1/send-batch` (4.3): one content to up to 10,000 recipients, now, scheduled, or as a dry run. */
export const sendBatch = defineRoute({
  method: 'POST',
  path: '/v1/send-batch',
  auth: 'project',
  idempotency: 'supported',
  summary: 'Send to up to 10,000 recipients',
  body: batchBodySchema,
  bodyExample: {
    recipients: ['ada@example.com', { email: 'alan@example.com', name: 'Alan', data: { plan: 'pro' } }],
    sender: 'hello@mail.example.com',
    subject: 'News for {{name}}',
    html: '<p>Hello {{name}}</p>',
  },
  answers: {
    200: json(batchAcceptedSchema, 'Accepted (queued now or scheduled), or a dry run', {
      success: true,
      message: 'Batch of 2 emails queued for sending',
      batch_id: '5a1f3c2e-7b4d-4e8f-9a6b-2c3d4e5f6a7b',
      status: 'sending',
      counts: { requested: 2, accepted: 2, duplicates_removed: 0 },
      recipients: [
        { email: 'ada@example.com', activity_id: '5a1f3c2e-7b4d-4e8f-9a6b-2c3d4e5f0000' },
        { email: 'alan@example.com', activity_id: '5a1f3c2e-7b4d-4e8f-9a6b-2c3d4e5f0001' },
      ],
    }),
    ...errors('project', {
      400: 'Invalid request (the first problem, naming a recipient by its index), an unconfigured environment (ENVIRONMENT_NOT_CONFIGURED), an invalid template id, or a scheduled_at that cannot be read, is past, or is more than 13 days ahead',
      403: 'The project is disabled (PROJECT_DISABLED)',
      404: 'No template with this id',
      409: 'A live marketing batch while the project\'s marketing is paused by the reputation watch (MARKETING_PAUSED, with `reason` and `paused_at`): send transactional mail as `email_type: transactional`, or resume marketing first; or a request with this Idempotency-Key is still in progress',
      422: 'The content renders to nothing (TEMPLATE_EMPTY), does not compile, or exceeds the render limits; or this Idempotency-Key was used with another request',
      502: 'The batch could not be stored or queued; nothing was accepted',
    }),
  },
  access: {
    table: 'readWrite',
    enqueue: ['fanout', 'scheduled'],
    payloads: 'put',
    settings: ['SERVICE_NAME', 'RECEIVING', 'INBOUND_DOMAIN', 'ACTIVITY_RETENTION_DAYS', 'TRACKING_BASE_URL', 'TRACKING_HOST', 'DMARC_REPORTS_DOMAIN'],
  },
  handle: async (request) => ({ status: 200, body: await acceptBatch(services(), request.caller, toBatchInput(request.body), publicBaseUrl(request)) }),
});
