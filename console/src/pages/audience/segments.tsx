/** Segments with their member counts (`GET /v1/segments`: a project has at most 500, so the API answers them at once). */
import { useState } from 'preact/hooks';
import { Pager, Table, type Column } from '../../components/table';
import { Badge, Card, ErrorNote, Loading } from '../../components/ui';
import { api, unwrap, type Schemas } from '../../lib/api';
import { formatCount, formatInstant } from '../../lib/format';
import { href } from '../../lib/router';
import { useLoad, type Loaded } from '../../lib/use-load';

type Segment = Schemas['Segment'];
/** Rows shown at once: the API's whole answer (≤ 500) is paged here so the table stays short. */
const PER_PAGE = 50;

/** The project's segments (for names and the segment filter). */
export function useSegments(): Loaded<Segment[]> {
  return useLoad(async () => (await unwrap(api.GET('/v1/segments'))).data, []);
}

/** A dynamic segment's evaluation as words: running, or when its last run finished. */
function evaluation(s: Segment) {
  if (s.type === 'static') return <span class="muted">Static</span>;
  if (!s.evaluation) return <Badge value="pending" />;
  return s.evaluation.status === 'done' ? <span>Evaluated {formatInstant(s.evaluation.evaluated_at)}</span> : <Badge value={s.evaluation.status} />;
}

const columns: readonly Column<Segment>[] = [
  { title: 'Segment', cell: (s) => <a href={href(['audience', 'leads'], { segment_id: s.id })}>{s.name}</a> },
  { title: 'Members', cell: (s) => formatCount(s.member_count) },
  { title: 'Type', cell: (s) => s.type, wide: true },
  { title: 'Evaluation', cell: evaluation, wide: true },
  { title: 'Description', cell: (s) => s.description ?? '—', wide: true },
];

/** The segments table: each links to its members in the leads list. */
export function Segments() {
  const segments = useSegments();
  const [page, setPage] = useState(1);
  const rows = segments.data ?? [];
  const shown = rows.slice((page - 1) * PER_PAGE, page * PER_PAGE);
  return (
    <Card title="Segments">
      <ErrorNote error={segments.error} />
      {segments.loading && !segments.data ? <Loading label="Loading segments…" /> : null}
      {segments.data ? (
        <>
          <Table caption="Segments" columns={columns} rows={shown} rowKey={(s) => s.id} empty="No segments yet: create them through the API (POST /v1/segments)." />
          {rows.length > PER_PAGE ? (
            <Pager label="Segment pages" info={{ page, per_page: PER_PAGE, total: rows.length }} shown={shown.length} onPage={setPage} />
          ) : null}
        </>
      ) : null}
    </Card>
  );
}
