/** The leads list: one page of `GET /v1/leads` at a time, searched and filtered by the API. */
import { useState } from 'preact/hooks';
import { Pager, Table, type Column } from '../../components/table';
import { Badge, Button, Card, ErrorNote, Field, Loading } from '../../components/ui';
import { api, unwrap, type Schemas } from '../../lib/api';
import { formatInstant } from '../../lib/format';
import { href, replaceQuery, type Route } from '../../lib/router';
import { useLoad } from '../../lib/use-load';
import { leadName, leadTags } from './lead-fields';
import { useSegments } from './segments';

const PER_PAGE = 50;
/** A search pages by number this deep (page * per_page); beyond, the API reads on by cursor. */
const SEARCH_PAGE_DEPTH = 1000;

type Lead = Schemas['Lead'];

const columns: readonly Column<Lead>[] = [
  { title: 'Email', cell: (l) => <a href={href(['audience', 'leads', l.id])}>{l.email}</a> },
  { title: 'Name', cell: (l) => leadName(l) ?? '—', wide: true },
  { title: 'Tags', cell: (l) => leadTags(l).join(', ') || '—', wide: true },
  { title: 'Marketing', cell: (l) => <Badge value={l.marketing_status} /> },
  { title: 'Created', cell: (l) => formatInstant(l.created_at), wide: true },
];

/** Leads, newest first; `search` and `segment_id` go to the API, the page is in the route's query. */
export function Leads({ route }: { route: Route }) {
  const search = route.query.get('search') ?? '';
  const segmentId = route.query.get('segment_id') ?? '';
  const cursor = route.query.get('cursor') ?? '';
  const page = Math.max(1, Number(route.query.get('page')) || 1);
  const segments = useSegments();
  const [draft, setDraft] = useState({ search, segmentId });

  const list = useLoad(
    () =>
      unwrap(
        api.GET('/v1/leads', {
          params: { query: { per_page: String(PER_PAGE), ...(cursor ? { cursor } : { page: String(page) }), ...(search ? { search } : {}), ...(segmentId ? { segment_id: segmentId } : {}) } },
        }),
      ),
    [search, segmentId, cursor, page],
  );

  const filters = { search: search || undefined, segment_id: segmentId || undefined };
  const apply = (e: Event) => {
    e.preventDefault();
    replaceQuery({ search: draft.search.trim() || undefined, segment_id: draft.segmentId || undefined });
  };
  const pagination = list.data?.pagination;
  // A search deeper than the API pages by number reads on from the previous page's cursor.
  const nextCursor = pagination?.next_cursor ?? undefined;
  const cursorNext = Boolean(search && nextCursor && (cursor || (page + 1) * PER_PAGE > SEARCH_PAGE_DEPTH));

  return (
    <>
      <form class="filters" role="search" aria-label="Leads" onSubmit={apply}>
        <Field label="Search (start of an email or name)" id="lead-search">
          <input id="lead-search" type="search" value={draft.search} onInput={(e) => setDraft({ ...draft, search: e.currentTarget.value })} />
        </Field>
        <Field label="Segment" id="lead-segment">
          <select id="lead-segment" value={draft.segmentId} onChange={(e) => setDraft({ ...draft, segmentId: e.currentTarget.value })}>
            <option value="">All leads</option>
            {(segments.data ?? []).map((s) => (
              <option key={s.id} value={s.id}>
                {s.name}
              </option>
            ))}
          </select>
        </Field>
        <div class="inline">
          <Button type="submit" variant="primary">
            Search
          </Button>
          {search || segmentId ? (
            <Button
              onClick={() => {
                setDraft({ search: '', segmentId: '' });
                replaceQuery({});
              }}
            >
              Clear
            </Button>
          ) : null}
        </div>
      </form>
      <Card title={search || segmentId ? 'Leads found' : 'Leads'}>
        <ErrorNote error={list.error} />
        {list.loading && !list.data ? <Loading label="Loading leads…" /> : null}
        {list.data ? (
          <Table caption="Leads" columns={columns} rows={list.data.data} rowKey={(l) => l.id} empty={search || segmentId ? 'No lead matches.' : 'No leads yet: import some under Imports.'} />
        ) : null}
        {list.data && cursor ? (
          <nav class="pager" aria-label="Lead pages">
            <Button class="small" onClick={() => replaceQuery(filters)}>
              First page
            </Button>
            <Button class="small" disabled={!nextCursor} onClick={() => replaceQuery({ ...filters, cursor: nextCursor })}>
              Next
            </Button>
          </nav>
        ) : list.data ? (
          <Pager
            label="Lead pages"
            // A search's total counts only the matches read so far: its pages say where they are and whether more follow.
            info={search ? { page, per_page: PER_PAGE, next_cursor: nextCursor ?? null } : list.data.pagination}
            shown={list.data.data.length}
            onPage={(p) => replaceQuery(cursorNext && p > page ? { ...filters, cursor: nextCursor } : { ...filters, page: String(p) })}
          />
        ) : null}
      </Card>
    </>
  );
}
