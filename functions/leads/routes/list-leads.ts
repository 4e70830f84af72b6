import { listLeads } from '../../../shared/audience/leads/lead-service';
import { leadExample, leadListAnswerSchema } from '../../../shared/audience/leads/lead-answers';
import { leadListQuerySchema } from '../../../shared/audience/leads/lead-input';
import { services } from '../../../composition/services';
import { errors, json } from '../../../shared/platform/http/answers';
import { pageQuerySchema, paginationBlock, parsePageRequest } from '../../../shared/platform/http/pagination';
import { defineRoute } from '../../../shared/platform/http/route';
import * as z from '../../../shared/platform/core/zod';
import { readLeads } from './lead-access';

/** `GET /v1/leads` (4.9): newest first, by segment, or a search on the start of the email or name. */
export const listLeadsRoute = defineRoute({
  method: 'GET',
  path: '/v1/leads',
  auth: 'project',
  summary: 'Leads',
  description: 'Newest first. `segment_id` lists a segment\'s members; `search` matches the start of the email, then of the name (any case), and pages on by `cursor` past 1,000 entries.',
  // Checked as the list reads them: the page first, then the filters.
  query: z.object({ ...pageQuerySchema.shape, ...leadListQuerySchema.shape }),
  answers: {
    200: json(leadListAnswerSchema, 'A page of leads', { success: true, data: [leadExample], pagination: { page: 1, per_page: 50, total: 1, total_pages: 1 } }),
    ...errors('project', {
      400: 'Invalid query (`page`, `per_page`, `search`, `segment_id`), a `cursor` without `search` or not valid for this list, `page` and `cursor` together, or a page deeper than the list reads',
      404: 'No segment with this `segment_id`',
    }),
  },
  access: readLeads,
  handle: async (request) => {
    const page = parsePageRequest(request.query);
    const { leads, total, nextCursor } = await listLeads(services().db, request.caller.project.id, page, request.query);
    // A search names where its next page starts (next_cursor, null at the end); other lists page by number only.
    const pagination = { ...paginationBlock(page, total), ...(nextCursor !== undefined ? { next_cursor: nextCursor } : {}) };
    return { status: 200, body: { success: true, data: leads, pagination } };
  },
});
