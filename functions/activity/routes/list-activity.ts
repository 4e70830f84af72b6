import * as z from '../../../shared/platform/core/zod';
import { activityListSchema, activityRecordExample } from '../../../shared/mail-pipeline/activity/activity-answers';
import { activityFilterFields, activityPosition, listActivity as listRecords, sinceNotAfterUntil, toActivityFilters } from '../../../shared/mail-pipeline/activity/activity-list';
import { presentActivity } from '../../../shared/mail-pipeline/activity/activity-presenter';
import { withBatchSubjects } from '../../../shared/mail-pipeline/batches/batch-activity';
import { services } from '../../../composition/services';
import { errors, json } from '../../../shared/platform/http/answers';
import { boundedPaginationBlock, cursorQuerySchema, listCursor, pageQuerySchema, parsePageRequest } from '../../../shared/platform/http/pagination';
import { defineRoute } from '../../../shared/platform/http/route';

/** The query of `GET /v1/activity`: the page first, then the filters in their order, then `since` against `until`. */
const listActivityQuerySchema = z.object({ ...pageQuerySchema.shape, ...activityFilterFields, ...cursorQuerySchema.shape }).check(sinceNotAfterUntil);

/** `GET /v1/activity` (4.11): records newest first, filtered, by page or by cursor. */
export const listActivity = defineRoute({
  method: 'GET',
  path: '/v1/activity',
  auth: 'project',
  summary: 'Activity records, newest first',
  query: listActivityQuerySchema,
  answers: {
    200: json(activityListSchema, 'A page of records', {
      success: true,
      data: [activityRecordExample],
      pagination: { page: 1, per_page: 50, total: 1, total_pages: 1, total_is_estimate: false, next_cursor: null },
    }),
    ...errors('project', {
      400: 'A bad page, per_page, status, is_test or timestamp; since after until; an invalid sender_domain (INVALID_SENDER_DOMAIN, naming it); page and cursor together; a page deeper than 1,000 records; or a cursor this list did not give',
    }),
  },
  access: { table: 'read' },
  handle: async (request) => {
    const page = parsePageRequest(request.query);
    const from = activityPosition(listCursor(request.query, page));
    const { db } = services();
    const listed = await listRecords(db, request.caller.project.id, toActivityFilters(request.query), page, from);
    const filled = await withBatchSubjects(db, listed.data);
    return { status: 200, body: { success: true, data: filled.map((a) => presentActivity(a)), pagination: boundedPaginationBlock(page, listed) } };
  },
});
