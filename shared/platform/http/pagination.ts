import * as z from '../core/zod';
import { badRequest } from '../core/errors';
import type { BoundedTotal, PageRequest } from '../store/paging';
import { parseRequest } from '../core/validate';

// The page a list reads and what it answers besides its rows are the store's paging terms (its list readers take them).
export { COUNT_WINDOW, type BoundedTotal, type PageRequest } from '../store/paging';

/** Page size when none is asked for, and the most a caller may ask for (part 4.0). */
export const DEFAULT_PER_PAGE = 50;
export const MAX_PER_PAGE = 200;
/** Deeper pages are refused: their offset must stay a count DynamoDB takes as a query Limit. */
export const MAX_PAGE = 1_000_000;

/** A page parameter: absent or '' for the default, else digits naming at least 1 (read before any bound). */
const pageNumber = (name: string, bound: { max: number; message: string }) =>
  z.optional(
    z.string().check(
      z.refine((v) => v === '' || (/^\d+$/.test(v) && Number(v) >= 1), { message: `${name} must be a positive integer`, abort: true }),
      z.refine((v) => v === '' || Number(v) <= bound.max, bound.message),
      z.meta({ pattern: '^[0-9]*$', description: `At least 1, at most ${bound.max}` }),
    ),
  );

/** The query fragment of every list route (part 4.0): composed into each list's query schema. */
export const pageQuerySchema = z.object({
  page: pageNumber('page', { max: MAX_PAGE, message: `page must be at most ${MAX_PAGE}` }),
  per_page: pageNumber('per_page', { max: MAX_PER_PAGE, message: `per_page must be between 1 and ${MAX_PER_PAGE}` }),
});

/** Reads `page` (default 1, at most 1,000,000) and `per_page` (default 50, at most 200) from a query string. */
export function parsePageRequest(query: Readonly<Record<string, string | undefined>>): PageRequest {
  const { page, per_page: perPage } = parseRequest(pageQuerySchema, query);
  return { page: page ? Number(page) : 1, perPage: perPage ? Number(perPage) : DEFAULT_PER_PAGE };
}

/** The `pagination` block of a list response; `total_pages` is left out where the spec omits it (campaigns). */
export function paginationBlock(request: PageRequest, total: number, withTotalPages = true) {
  const block: Record<string, number> = { page: request.page, per_page: request.perPage, total };
  if (withTotalPages) block.total_pages = Math.ceil(total / request.perPage);
  return block;
}

/**
 * Offset pages reach this deep (`page × per_page`); deeper, a list reads on by `cursor`. Skipping
 * to an offset reads every entry before it, so the offset is what bounds it.
 */
export const LIST_PAGE_DEPTH = 1_000;

/** The `cursor` query parameter of a list that pages by cursor beyond LIST_PAGE_DEPTH. */
export const cursorQuerySchema = z.object({
  cursor: z.optional(z.string().check(z.meta({ description: 'The previous answer\'s `pagination.next_cursor`: reads on from there' }))),
});

/**
 * The cursor of a bounded list request, checked against its page: `page` and `cursor` together are
 * refused, and so is an offset page deeper than LIST_PAGE_DEPTH.
 */
export function listCursor(query: Readonly<Record<string, string | undefined>>, page: PageRequest): string | undefined {
  const cursor = query.cursor || undefined;
  if (cursor && page.page > 1) throw badRequest('Pass either page or cursor, not both');
  if (!cursor && page.page * page.perPage > LIST_PAGE_DEPTH) {
    throw badRequest(`page * per_page may not exceed ${LIST_PAGE_DEPTH}; pass the previous page's next_cursor as cursor to read on`);
  }
  return cursor;
}

/** The `pagination` block of a bounded list: paginationBlock plus `total_is_estimate` and `next_cursor`. */
export function boundedPaginationBlock(request: PageRequest, listed: BoundedTotal, withTotalPages = true) {
  return { ...paginationBlock(request, listed.total, withTotalPages), total_is_estimate: listed.totalIsEstimate, next_cursor: listed.nextCursor };
}
