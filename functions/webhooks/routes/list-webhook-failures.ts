import * as z from '../../../shared/platform/core/zod';
import { services } from '../../../composition/services';
import { errors, json } from '../../../shared/platform/http/answers';
import { boundedPaginationBlock, cursorQuerySchema, pageQuerySchema, parsePageRequest } from '../../../shared/platform/http/pagination';
import { defineRoute } from '../../../shared/platform/http/route';
import { webhookFailureListAnswerSchema } from '../../../shared/notifications/webhooks/webhook-answers';
import { listWebhookFailures as pageFailures } from '../../../shared/notifications/webhooks/webhook-failures';
import { webhookFailuresAccess } from './webhooks-access';

/** The list's query: the page, and the cursor of a deeper page. */
const listWebhookFailuresQuerySchema = z.object({ ...pageQuerySchema.shape, ...cursorQuerySchema.shape });

/** `GET /v1/webhooks/failures`: deliveries that failed for good, newest first. */
export const listWebhookFailures = defineRoute({
  method: 'GET',
  path: '/v1/webhooks/failures',
  auth: 'project',
  summary: 'Webhook deliveries that failed for good',
  description: 'Newest first. Offset pages reach 1,000 entries deep (`page * per_page`); read on with `cursor`.',
  query: listWebhookFailuresQuerySchema,
  answers: {
    200: json(webhookFailureListAnswerSchema, 'A page of failed deliveries', {
      success: true,
      data: [
        {
          delivery_id: 'msg_5b0c8e4a-2f1d-4c3b-9a8e-7d6c5b4a3f21',
          event: 'email.delivery',
          activity_id: '3f2b8c1e-9a4d-4f6b-8e2a-7c5d1b0a9e34',
          url: 'https://hooks.example.com/email-events',
          slot: 'live',
          attempts: 5,
          last_status: 503,
          last_error: 'HTTP 503',
          failed_at: '2026-11-26T07:41:12.000Z',
        },
      ],
      pagination: { page: 1, per_page: 50, total: 1, total_pages: 1, total_is_estimate: false, next_cursor: null },
    }),
    ...errors('project', { 400: 'A page parameter out of range, `page` with `cursor`, an offset past 1,000, or a cursor that is not this list\'s' }),
  },
  access: webhookFailuresAccess,
  handle: async (request) => {
    const page = parsePageRequest(request.query);
    const { failures, listed } = await pageFailures(services(), request.caller.project.id, page, request.query);
    return { status: 200, body: { success: true, data: failures, pagination: boundedPaginationBlock(page, listed) } };
  },
});
