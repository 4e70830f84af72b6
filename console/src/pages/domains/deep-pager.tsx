/** Paging a bounded list: page numbers for the first 1,000 entries, then the API's cursor. */
import { Pager } from '../../components/table';

/** The `pagination` block of the API's bounded lists. */
export interface BoundedPagination {
  readonly page: number;
  readonly per_page: number;
  readonly total: number;
  readonly total_pages: number;
  readonly total_is_estimate: boolean;
  readonly next_cursor: string | null;
}

/** How deep offset pages reach (`page * per_page`); past it the API reads on by cursor only. */
const OFFSET_LIMIT = 1000;

/**
 * The pager of a bounded list. Page numbers go as deep as the API's offsets allow; from there
 * "Read on" follows `next_cursor` (the view is then in cursor mode: "First page" goes back).
 */
export function DeepPager(props: {
  info: BoundedPagination | undefined;
  shown: number;
  cursor: string | undefined;
  onPage: (page: number) => void;
  onCursor: (cursor: string | undefined) => void;
  label: string;
}) {
  const { info } = props;
  if (!info) return null;
  // An empty list needs no pager ("Page 1 of 0" says nothing the empty note does not).
  if (props.shown === 0 && info.page === 1 && !props.cursor) return null;
  if (props.cursor) {
    return (
      <nav class="pager" aria-label={props.label}>
        <button type="button" class="btn plain small" onClick={() => props.onCursor(undefined)}>
          First page
        </button>
        <span>Reading on past the first {OFFSET_LIMIT} entries</span>
        <button type="button" class="btn plain small" disabled={!info.next_cursor} onClick={() => info.next_cursor && props.onCursor(info.next_cursor)}>
          Next
        </button>
      </nav>
    );
  }
  const deepest = Math.max(1, Math.floor(OFFSET_LIMIT / info.per_page));
  const lastPage = Math.min(info.total_pages, deepest);
  const readOn = info.page >= deepest && info.next_cursor;
  const total = info.total_is_estimate ? undefined : info.total;
  return (
    <div class="deep-pager">
      <Pager info={{ page: info.page, per_page: info.per_page, total, total_pages: lastPage }} shown={props.shown} onPage={props.onPage} label={props.label} />
      {info.total_is_estimate ? <p class="hint pager-hint">At least {info.total} entries</p> : null}
      {readOn ? (
        <button type="button" class="btn plain small" onClick={() => props.onCursor(info.next_cursor ?? undefined)}>
          Read on
        </button>
      ) : null}
    </div>
  );
}

/** The page number of a view's query (`?page=3`), 1 when absent or wrong. */
export function pageOf(query: URLSearchParams): number {
  const n = Number(query.get('page'));
  return Number.isInteger(n) && n >= 1 ? n : 1;
}
