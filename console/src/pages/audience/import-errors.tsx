/** An import's failed rows: `GET /v1/leads/imports/{id}/errors` (CSV), shown as a table and offered as a file. */
import { useEffect, useState } from 'preact/hooks';
import { Table } from '../../components/table';
import { Button, Card, ErrorNote, Loading } from '../../components/ui';
import { api, unwrap } from '../../lib/api';
import { formatCount } from '../../lib/format';
import { useLoad } from '../../lib/use-load';

/** Rows of the report shown on the page (the whole report is in the download). */
const SHOWN = 50;

/** The cells of a CSV text (RFC 4180: quoted cells, doubled quotes, CRLF or LF). */
export function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let cell = '';
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (quoted) {
      if (c === '"' && text[i + 1] === '"') (cell += '"'), i++;
      else if (c === '"') quoted = false;
      else cell += c;
    } else if (c === '"') quoted = true;
    else if (c === ',') row.push(cell), (cell = '');
    else if (c === '\n' || c === '\r') {
      if (c === '\r' && text[i + 1] === '\n') i++;
      row.push(cell);
      rows.push(row);
      (row = []), (cell = '');
    } else cell += c;
  }
  if (cell !== '' || row.length) row.push(cell), rows.push(row);
  return rows;
}

/** The report of an import's failed rows. */
export function ErrorReport({ id, failed }: { id: string; failed: number }) {
  const report = useLoad(() => unwrap(api.GET('/v1/leads/imports/{id}/errors', { params: { path: { id } }, parseAs: 'text' })), [id]);
  const [url, setUrl] = useState<string>();
  useEffect(() => {
    if (report.data === undefined) return undefined;
    const made = URL.createObjectURL(new Blob([report.data], { type: 'text/csv' }));
    setUrl(made);
    return () => URL.revokeObjectURL(made);
  }, [report.data]);

  const [header, ...rows] = report.data ? parseCsv(report.data) : [];
  return (
    <Card
      title="Failed rows"
      actions={
        url ? (
          <a class="btn plain small" href={url} download={`import-${id}-errors.csv`}>
            Download the report (CSV)
          </a>
        ) : null
      }
    >
      <ErrorNote error={report.error} />
      {report.loading && !report.data ? <Loading label="Loading the report…" /> : null}
      {report.data ? (
        <>
          <Table
            caption="Failed rows of the import"
            columns={(header ?? []).map((title, i) => ({ title, cell: (r: string[]) => r[i] ?? '' }))}
            rows={rows.slice(0, SHOWN)}
            rowKey={(r) => r.join('\u0000')}
          />
          {failed > SHOWN ? <p class="muted">The first {SHOWN} of {formatCount(failed)} failed rows; the download holds them all (up to 10,000).</p> : null}
        </>
      ) : null}
      {!report.data && !report.loading ? (
        <Button class="small" onClick={report.reload}>
          Load the report again
        </Button>
      ) : null}
    </Card>
  );
}

