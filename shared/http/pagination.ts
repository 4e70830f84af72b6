import * as z from '../zod';
import { parseRequest } from '../validate';

/** Page size when none is asked for, and the most a caller may ask for (part 4.0). */
export const DEFAULT_PER_PAGE = 50;
export const MAX_PER_PAGE = 200;
/** Deeper pages are refused: their offset must stay a count DynamoDB takes as a query Limit. */
export const MAX_PAGE = 1_000_000;

export interface PageRequest {
  readonly page: number;
  readonly perPage: number;
}

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
