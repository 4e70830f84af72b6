/**
 * The terms of a paged list read, shared by the store's list readers (bounded-list.ts,
 * sharded-list.ts) and the HTTP lists that answer them (shared/platform/http/pagination.ts re-exports them).
 */

/** The page a list request asks for (1-based) and its size. */
export interface PageRequest {
  readonly page: number;
  readonly perPage: number;
}

/** A list's `total` counts at most this many entries beyond its page; past that it is a lower bound. */
export const COUNT_WINDOW = 1_000;

/** What a bounded list read answers besides its rows. */
export interface BoundedTotal {
  /** Entries before this page, on it, and after it up to COUNT_WINDOW. */
  total: number;
  /** True when the count stopped at its window: more entries may follow than `total` says. */
  totalIsEstimate: boolean;
  /** The cursor of the next page; null once the list is at its end. */
  nextCursor: string | null;
}
