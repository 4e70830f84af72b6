import * as z from '../../../shared/platform/core/zod';
import { batchListAnswerSchema } from '../../../shared/mail-pipeline/batches/batch-answers';
import { batchListFilterFields, listBatches as listProjectBatches } from '../../../shared/mail-pipeline/batches/batch-list';
import type { BatchStatus } from '../../../shared/mail-pipeline/batches/batch';
import { services } from '../../../composition/services';
import { errors, json } from '../../../shared/platform/http/answers';
import { boundedPaginationBlock, cursorQuerySchema, listCursor, pageQuerySchema, parsePageRequest } from '../../../shared/platform/http/pagination';
import { defineRoute } from '../../../shared/platform/http/route';
import { positionOfCursor } from '../../../shared/platform/http/cursor';

/** The query: the page first, then the status, then the cursor. */
const listBatchesQuerySchema = z.object({ ...pageQuerySchema.shape, ...batchListFilterFields, ...cursorQuerySchema.shape });

/** `GET /v1/send-batch`: the project's batches, newest first, with their status and counts. */
export const listBatches = defineRoute({
  method: 'GET',
  path: '/v1/send-batch',
  auth: 'project',
  summary: 'Batches, newest first',
  description:
    'The batches sent through `POST /v1/send-batch` with the calling key\'s mode (a test key lists test batches, a live key live ones); ' +
    'a campaign\'s waves are not listed. Per-recipient outcomes are in `GET /v1/activity`. Offset pages reach 1,000 entries deep ' +
    '(`page * per_page`); read on with `cursor`. A `status` is checked on the batches themselves: such a page reads at most ten batches per ' +
    'batch it skips or shows, so it can come back short with a `next_cursor` to read on.',
  query: listBatchesQuerySchema,
  answers: {
    200: json(batchListAnswerSchema, 'A page of batches', {
      success: true,
      data: [
        {
          batch_id: '5a1f3c2e-7b4d-4e8f-9a6b-2c3d4e5f6a7b',
          status: 'scheduled',
          scheduled_for: '2026-11-27T09:00:00.000Z',
          timezone: 'Europe/London',
          created_at: '2026-11-26T18:12:44.512Z',
          recipients: 1200,
          duplicates_removed: 3,
          counts: { queued: 1200, suppressed: 0, cancelled: 0, failed: 0 },
        },
        {
          batch_id: 'c2d4e6f8-1a3b-4c5d-8e7f-9a0b1c2d3e4f',
          status: 'sent',
          scheduled_for: null,
          timezone: null,
          created_at: '2026-11-25T14:03:10.207Z',
          recipients: 840,
          duplicates_removed: 0,
          counts: { queued: 831, suppressed: 7, cancelled: 0, failed: 2 },
        },
      ],
      pagination: { page: 1, per_page: 50, total: 2, total_pages: 1, total_is_estimate: false, next_cursor: null },
    }),
    ...errors('project', {
      400: 'A bad page or per_page; a status that is not scheduled, sending, sent or cancelled; page and cursor together; a page deeper than 1,000 batches; or a cursor this list did not give',
    }),
  },
  access: { table: 'read' },
  handle: async (request) => {
    const page = parsePageRequest(request.query);
    const after = positionOfCursor(listCursor(request.query, page));
    const status = (request.query.status || undefined) as BatchStatus | undefined;
    const listed = await listProjectBatches(services().db, request.caller, status, page, after);
    return { status: 200, body: { success: true, data: listed.data, pagination: boundedPaginationBlock(page, listed) } };
  },
});
