import * as z from '../../../shared/platform/core/zod';
import { services } from '../../../composition/services';
import { errors, json } from '../../../shared/platform/http/answers';
import { boundedPaginationBlock, cursorQuerySchema, listCursor, pageQuerySchema, parsePageRequest } from '../../../shared/platform/http/pagination';
import { defineRoute } from '../../../shared/platform/http/route';
import { positionOfCursor } from '../../../shared/platform/http/cursor';
import { scheduledSendExample, scheduledSendListAnswerSchema } from '../../../shared/mail-pipeline/scheduling/scheduled-send-answers';
import { fromNotAfterTo, listScheduledSends as listSends, scheduledListFilterFields, toScheduledListFilters } from '../../../shared/mail-pipeline/scheduling/scheduled-send-list';

/** The query: the page first, then the filters in their order, then `from` against `to`, then the cursor. */
const listScheduledSendsQuerySchema = z.object({ ...pageQuerySchema.shape, ...scheduledListFilterFields, ...cursorQuerySchema.shape }).check(fromNotAfterTo);

/** `GET /v1/scheduled-sends`: the project's scheduled sends by `scheduled_for`, filtered, by page or by cursor. */
export const listScheduledSends = defineRoute({
  method: 'GET',
  path: '/v1/scheduled-sends',
  auth: 'project',
  summary: 'Scheduled sends, by scheduled time',
  description:
    'The sends scheduled with the calling key\'s mode (a test key lists test sends, a live key live ones). ' +
    '`status=pending` lists soonest first; every other view latest `scheduled_for` first. `from` and `to` bound `scheduled_for` (inclusive). ' +
    'Offset pages reach 1,000 entries deep (`page * per_page`); read on with `cursor`. A status other than `pending` is checked on the sends ' +
    'themselves: such a page reads at most ten sends per send it skips or shows, so it can come back short with a `next_cursor` to read on.',
  query: listScheduledSendsQuerySchema,
  answers: {
    200: json(scheduledSendListAnswerSchema, 'A page of scheduled sends', {
      success: true,
      data: [
        scheduledSendExample,
        {
          ...scheduledSendExample,
          id: '0b7c4e2a-5d1f-4a3b-9c8e-6f2d1a0b3c4d',
          scheduled_for: '2026-11-27T17:30:00.000Z',
          timezone: 'America/New_York',
          recipient_email: 'grace@example.org',
          subject: 'Your invoice for November',
        },
      ],
      pagination: { page: 1, per_page: 50, total: 2, total_pages: 1, total_is_estimate: false, next_cursor: null },
    }),
    ...errors('project', {
      400: 'A bad page or per_page; a status that is not pending, processing, sent, failed or cancelled; from or to not a timestamp; from after to; page and cursor together; a page deeper than 1,000 sends; or a cursor this list did not give',
    }),
  },
  access: { table: 'read' },
  handle: async (request) => {
    const page = parsePageRequest(request.query);
    const after = positionOfCursor(listCursor(request.query, page));
    const listed = await listSends(services().db, request.caller, toScheduledListFilters(request.query), page, after);
    return { status: 200, body: { success: true, data: listed.data, pagination: boundedPaginationBlock(page, listed) } };
  },
});
