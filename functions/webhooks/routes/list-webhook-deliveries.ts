import * as z from '../../../shared/platform/core/zod';
import { services } from '../../../composition/services';
import { errors, json } from '../../../shared/platform/http/answers';
import { boundedPaginationBlock, cursorQuerySchema, listCursor, pageQuerySchema, parsePageRequest } from '../../../shared/platform/http/pagination';
import { defineRoute } from '../../../shared/platform/http/route';
import { pageDeliveryLog, type DeliveryFilters } from '../../../shared/notifications/webhooks/delivery-log';
import { webhookDeliveryExample, webhookDeliveryListAnswerSchema } from '../../../shared/notifications/webhooks/webhook-answers';
import { WEBHOOK_EVENT_NAMES } from '../../../shared/notifications/webhooks/event-names';
import { webhookDeliveriesAccess } from './webhooks-access';

const EVENTS = WEBHOOK_EVENT_NAMES;
const OUTCOMES = ['succeeded', 'failed'] as const;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** The list's query: the page, the cursor of a deeper page, and the filters (an empty value filters nothing). */
const listWebhookDeliveriesQuerySchema = z.object({
  ...pageQuerySchema.shape,
  ...cursorQuerySchema.shape,
  event: z.optional(z.string().check(z.refine((v) => v === '' || EVENTS.includes(v), `event must be one of ${EVENTS.join(', ')}`))),
  outcome: z.optional(z.string().check(z.refine((v) => v === '' || (OUTCOMES as readonly string[]).includes(v), `outcome must be one of ${OUTCOMES.join(', ')}`))),
  activity_id: z.optional(
    z.string().check(z.refine((v) => v === '' || UUID.test(v), 'activity_id must be a uuid'), z.meta({ description: 'Only the deliveries of this mail\'s events (its activity id, `email_id` of the send answers)' })),
  ),
});

/** `GET /v1/webhooks/deliveries`: the project's delivery attempts of the last 3 days, newest first. */
export const listWebhookDeliveries = defineRoute({
  method: 'GET',
  path: '/v1/webhooks/deliveries',
  auth: 'project',
  summary: 'Recent webhook delivery attempts',
  description:
    'Every attempt of every delivery of the last 3 days, newest attempt first, with its HTTP status or error, its duration and the start of the answer. ' +
    'Filter by `event`, `outcome` and `activity_id` (the deliveries of one mail\'s events). Offset pages reach 1,000 entries deep (`page * per_page`); read on with `cursor`. ' +
    'A filtered page reads at most ten entries per entry it skips or shows: it may come back short with a `next_cursor`, and its `total` is then an estimate.',
  query: listWebhookDeliveriesQuerySchema,
  answers: {
    200: json(webhookDeliveryListAnswerSchema, 'A page of delivery attempts', {
      success: true,
      data: [webhookDeliveryExample],
      pagination: { page: 1, per_page: 50, total: 1, total_pages: 1, total_is_estimate: false, next_cursor: null },
    }),
    ...errors('project', {
      400: 'An unknown `event` or `outcome`, an `activity_id` that is not a uuid, a page parameter out of range, `page` with `cursor`, an offset past 1,000, or a cursor that is not this list\'s',
    }),
  },
  access: webhookDeliveriesAccess,
  handle: async (request) => {
    const page = parsePageRequest(request.query);
    const cursor = listCursor(request.query, page);
    const filters: DeliveryFilters = {};
    if (request.query.event) filters.event = request.query.event;
    if (request.query.outcome) filters.outcome = request.query.outcome as DeliveryFilters['outcome'];
    if (request.query.activity_id) filters.activityId = request.query.activity_id.toLowerCase();
    const { entries, ...listed } = await pageDeliveryLog(services().db, request.caller.project.id, filters, page, cursor);
    return { status: 200, body: { success: true, data: entries, pagination: boundedPaginationBlock(page, listed) } };
  },
});
