import * as z from '../../../shared/platform/core/zod';
import { services } from '../../../composition/services';
import { errors, json } from '../../../shared/platform/http/answers';
import { boundedPaginationBlock, cursorQuerySchema, pageQuerySchema, parsePageRequest } from '../../../shared/platform/http/pagination';
import { defineRoute } from '../../../shared/platform/http/route';
import { suppressionExample, suppressionListAnswerSchema } from '../../../shared/mail-pipeline/suppression/suppression-answers';
import { suppressionListQuerySchema } from '../../../shared/mail-pipeline/suppression/suppression-request';
import { listSuppressions as pageSuppressions, presentSuppression } from '../../../shared/mail-pipeline/suppression/suppression-service';
import { suppressionsReadAccess } from './suppressions-access';

/** The list's query, checked in the order the list reads it: the page, the reason, the cursor. */
const listSuppressionsQuerySchema = z.object({ ...pageQuerySchema.shape, ...suppressionListQuerySchema.shape, ...cursorQuerySchema.shape });

/** `GET /v1/suppressions`: the project's suppression list, optionally of one reason. */
export const listSuppressions = defineRoute({
  method: 'GET',
  path: '/v1/suppressions',
  auth: 'project',
  summary: 'The suppression list',
  description: 'Offset pages reach 1,000 entries deep (`page * per_page`); read on with `cursor`.',
  query: listSuppressionsQuerySchema,
  answers: {
    200: json(suppressionListAnswerSchema, 'A page of suppressed addresses', {
      success: true,
      data: [suppressionExample],
      pagination: { page: 1, per_page: 50, total: 1, total_pages: 1, total_is_estimate: false, next_cursor: null },
    }),
    ...errors('project', { 400: 'A page parameter out of range, an unknown `reason`, `page` with `cursor`, an offset past 1,000, or a cursor that is not this list\'s' }),
  },
  access: suppressionsReadAccess,
  handle: async (request) => {
    const page = parsePageRequest(request.query);
    const { entries, ...listed } = await pageSuppressions(services(), request.caller.project.id, page, request.query);
    return { status: 200, body: { success: true, data: entries.map(presentSuppression), pagination: boundedPaginationBlock(page, listed) } };
  },
});
