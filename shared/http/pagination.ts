import { badRequest } from '../errors';

/** Page size when none is asked for, and the most a caller may ask for (part 4.0). */
export const DEFAULT_PER_PAGE = 50;
export const MAX_PER_PAGE = 200;
/** Deeper pages are refused: their offset must stay a count DynamoDB takes as a query Limit. */
export const MAX_PAGE = 1_000_000;

export interface PageRequest {
  readonly page: number;
  readonly perPage: number;
}

/** Reads `page` (default 1, at most 1,000,000) and `per_page` (default 50, at most 200) from a query string. */
export function parsePageRequest(query: Readonly<Record<string, string | undefined>>): PageRequest {
  const page = parsePositive(query.page, 'page', 1);
  if (page > MAX_PAGE) throw badRequest(`page must be at most ${MAX_PAGE}`);
  const perPage = parsePositive(query.per_page, 'per_page', DEFAULT_PER_PAGE);
  if (perPage > MAX_PER_PAGE) throw badRequest(`per_page must be between 1 and ${MAX_PER_PAGE}`);
  return { page, perPage };
}

/** The `pagination` block of a list response; `total_pages` is left out where the spec omits it (campaigns). */
export function paginationBlock(request: PageRequest, total: number, withTotalPages = true) {
  const block: Record<string, number> = { page: request.page, per_page: request.perPage, total };
  if (withTotalPages) block.total_pages = Math.ceil(total / request.perPage);
  return block;
}

function parsePositive(value: string | undefined, name: string, fallback: number): number {
  if (value === undefined || value === '') return fallback;
  if (!/^\d+$/.test(value) || Number(value) < 1) throw badRequest(`${name} must be a positive integer`);
  return Number(value);
}
