/** Lists: a table that never loads a whole list (one page of the API at a time), and its pager. */
import type { ComponentChildren } from 'preact';

/** One column: its heading and how a row shows in it. */
export interface Column<T> {
  readonly title: string;
  readonly cell: (row: T) => ComponentChildren;
  /** Hidden on narrow screens (the row stays readable at 390 px). */
  readonly wide?: boolean;
}

/** A table of one page of rows; `caption` names it for screen readers. */
export function Table<T>(props: { caption: string; columns: readonly Column<T>[]; rows: readonly T[]; rowKey: (row: T) => string; empty?: ComponentChildren }) {
  if (props.rows.length === 0) return <p class="empty">{props.empty ?? 'Nothing here yet.'}</p>;
  return (
    <div class="table-wrap">
      <table>
        <caption class="visually-hidden">{props.caption}</caption>
        <thead>
          <tr>
            {props.columns.map((c) => (
              <th scope="col" key={c.title} class={c.wide ? 'wide' : undefined}>
                {c.title}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {props.rows.map((row) => (
            <tr key={props.rowKey(row)}>
              {props.columns.map((c) => (
                <td key={c.title} class={c.wide ? 'wide' : undefined}>
                  {c.cell(row)}
                </td>
              ))}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

/** The API's page numbers: previous and next, and where this page is. */
export interface PageInfo {
  readonly page: number;
  readonly per_page: number;
  readonly total?: number | null;
  readonly total_pages?: number | null;
  /** Bounded lists (activity, templates...): `total` is a lower bound when this is true. */
  readonly total_is_estimate?: boolean;
  /** Bounded lists: the cursor of the next page (pass it back as `cursor`); null at the end. */
  readonly next_cursor?: string | null;
}

/**
 * Previous and next page buttons for a paged list; `onPage` loads the chosen page, with the
 * answer's `next_cursor` when going forward on a bounded list (deep pages cost the API nothing more).
 */
export function Pager(props: { info: PageInfo | undefined; shown: number; onPage: (page: number, cursor?: string) => void; label?: string }) {
  const info = props.info;
  if (!info) return null;
  const estimate = info.total_is_estimate === true;
  const last = estimate ? undefined : (info.total_pages ?? (info.total !== undefined && info.total !== null ? Math.max(1, Math.ceil(info.total / info.per_page)) : undefined));
  const hasNext = info.next_cursor !== undefined ? info.next_cursor !== null : last !== undefined ? info.page < last : props.shown >= info.per_page;
  return (
    <nav class="pager" aria-label={props.label ?? 'Pages'}>
      <button type="button" class="btn plain small" disabled={info.page <= 1} onClick={() => props.onPage(info.page - 1)}>
        Previous
      </button>
      <span>
        Page {info.page}
        {last !== undefined ? ` of ${last}` : ''}
        {info.total !== undefined && info.total !== null ? ` · ${estimate ? 'over ' : ''}${info.total} in all` : ''}
      </span>
      <button type="button" class="btn plain small" disabled={!hasNext} onClick={() => props.onPage(info.page + 1, info.next_cursor ?? undefined)}>
        Next
      </button>
    </nav>
  );
}
