/**
 * Pages of a bounded list (`GET /v1/events`, `GET /v1/activity`): by number while the API reads
 * that deep (page * per_page ≤ 1,000), then by the `next_cursor` each answer gives, kept so that
 * Previous finds its way back.
 */
import { useState } from 'preact/hooks';
import type { PageInfo } from '../../components/table';

/** Deepest entry a bounded list reaches by page number. */
const PAGE_DEPTH = 1000;

/** The page a list is on, its query for the API, the Pager's info for an answer, and the way to turn. */
export function useBoundedPages(perPage: number) {
  const [state, setState] = useState<{ page: number; cursors: Readonly<Record<number, string>> }>({ page: 1, cursors: {} });
  const deep = state.page * perPage > PAGE_DEPTH;
  const cursor = deep ? state.cursors[state.page] : undefined;
  return {
    page: state.page,
    query: cursor ? { cursor, per_page: String(perPage) } : { page: String(state.page), per_page: String(perPage) },
    /** The Pager's info: past the numbered pages the API counts from the cursor, so only Next is known. */
    info: (answer: PageInfo): PageInfo => (deep ? { page: state.page, per_page: perPage, next_cursor: answer.next_cursor } : answer),
    turn: (page: number, next?: string) => setState((s) => ({ page, cursors: next ? { ...s.cursors, [page]: next } : s.cursors })),
  };
}

/** True when a list has more than the one page shown (a lone page needs no pager). */
export function morePages(page: number, answer: PageInfo): boolean {
  return page > 1 || Boolean(answer.next_cursor) || (answer.total_pages ?? 1) > 1;
}
