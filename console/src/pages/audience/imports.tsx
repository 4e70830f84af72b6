/**
 * Lead imports: a CSV or JSON-lines file is uploaded to the import's upload URL (PUT, straight to
 * the bucket: files of any size, never through the API's 6 MB request limit), started, and its
 * progress polled until it is done; then its counts and the report of its failed rows.
 */
import { useCallback, useState } from 'preact/hooks';
import { Badge, Button, Card, Details, ErrorNote, Field, Loading, Notice } from '../../components/ui';
import { api, ApiError, unwrap, type Schemas } from '../../lib/api';
import { formatCount, formatInstant } from '../../lib/format';
import { href, navigate } from '../../lib/router';
import { useLoad, usePoll } from '../../lib/use-load';
import { ErrorReport } from './import-errors';

type Format = 'csv' | 'jsonl';

/** The format a file's name suggests. */
const formatOf = (name: string): Format => (/\.(jsonl|ndjson)$/i.test(name) ? 'jsonl' : 'csv');

/** Creates the import, PUTs the file to its upload URL, starts it; answers the import's id. */
async function uploadAndStart(file: File, format: Format, step: (words: string) => void): Promise<string> {
  step('Creating the import…');
  const created = await unwrap(api.POST('/v1/leads/imports', { body: { format } }));
  const upload = created.upload;
  if (!upload) throw new Error('The API gave no upload URL for this import.');
  step(`Uploading ${file.name}…`);
  let put: Response;
  try {
    put = await fetch(upload.url, { method: upload.method, body: file });
  } catch {
    // A network failure, or a refusal by the page's Content-Security-Policy or the bucket's CORS rules.
    throw new Error(`The file could not be uploaded to ${new URL(upload.url).origin} (network, Content-Security-Policy or CORS refusal).`);
  }
  if (!put.ok) throw new Error(`The upload was refused: ${put.status} ${put.statusText}`);
  step('Starting the import…');
  await unwrap(api.POST('/v1/leads/imports/{id}/start', { params: { path: { id: created.import.id } } }));
  return created.import.id;
}

/** The form that starts an import (`#/audience/imports`). */
export function Imports() {
  const [file, setFile] = useState<File>();
  const [format, setFormat] = useState<Format>('csv');
  const [busy, setBusy] = useState(false);
  const [step, setStep] = useState<string>();
  const [error, setError] = useState<Error>();

  const submit = async (e: Event) => {
    e.preventDefault();
    if (!file) return setError(new Error('Choose a file to import.'));
    setBusy(true);
    setError(undefined);
    try {
      const id = await uploadAndStart(file, format, setStep);
      navigate(href(['audience', 'imports', id]));
    } catch (err) {
      setError(err as Error);
      setBusy(false);
      setStep(undefined);
    }
  };

  return (
    <Card title="Import leads">
      <p class="muted">
        A CSV file with a header row (an <code>email</code> column, any other columns become attributes; <code>tags</code> and <code>segment_ids</code> are lists), or JSON lines. A lead whose email exists
        already is updated.
      </p>
      <form onSubmit={submit}>
        <Field label="File" id="import-file" hint="CSV (.csv) or JSON lines (.jsonl)">
          <input
            id="import-file"
            type="file"
            accept=".csv,text/csv,.jsonl,.ndjson,application/x-ndjson"
            aria-describedby="import-file-hint"
            onChange={(e) => {
              const picked = e.currentTarget.files?.[0];
              setFile(picked);
              if (picked) setFormat(formatOf(picked.name));
            }}
          />
        </Field>
        <Field label="Format" id="import-format">
          <select id="import-format" value={format} onChange={(e) => setFormat(e.currentTarget.value as Format)}>
            <option value="csv">CSV</option>
            <option value="jsonl">JSON lines</option>
          </select>
        </Field>
        <ErrorNote error={error} title="The import did not start" />
        <div class="inline">
          <Button type="submit" variant="primary" busy={busy} disabled={!file}>
            Start the import
          </Button>
          {step ? (
            <span class="muted" role="status">
              {step}
            </span>
          ) : null}
        </div>
      </form>
    </Card>
  );
}

/** True while an import still changes (its progress is polled). */
const running = (i: Schemas['LeadImport'] | undefined) => i !== undefined && (i.status === 'queued' || i.status === 'running');

/** One import (`#/audience/imports/<id>`): its progress bar, polled until it is done, its counts and failed rows. */
export function ImportView({ id }: { id: string }) {
  const loaded = useLoad(async () => (await unwrap(api.GET('/v1/leads/imports/{id}', { params: { path: { id } } }))).import, [id]);
  const item = loaded.data;
  const reload = useCallback(() => loaded.reload(), [loaded.reload]);
  usePoll(running(item), 1000, reload);

  if (loaded.error && !item) return <ErrorNote error={loaded.error} title="The import could not be read" />;
  if (!item) return <Loading label="Loading the import…" />;
  const finished = item.status === 'done' || item.status === 'failed';
  return (
    <>
      <p>
        <a href={href(['audience', 'imports'])}>← Import another file</a>
      </p>
      <Card title="Import" actions={<Badge value={item.status} tone={item.status === 'done' ? 'good' : item.status === 'failed' ? 'bad' : 'neutral'} />}>
        <div class="import-progress">
          <label for="import-progress">Progress</label>
          <progress id="import-progress" class="progress" max={100} value={item.progress.percent} />
          <span role="status" aria-live="polite">
            {item.status === 'done' ? 'Done: 100 %' : item.status === 'failed' ? 'Failed' : item.status === 'awaiting_upload' ? 'Waiting for its file' : `${item.progress.percent} %`}
          </span>
        </div>
        {item.error ? <ErrorNote error={new ApiError(0, item.error)} title="The import failed" /> : null}
        <div class="compact-details">
          <Details
            items={[
              ['Rows read', formatCount(item.rows_processed)],
              ['Leads created', formatCount(item.leads_created)],
              ['Leads updated', formatCount(item.leads_updated)],
              ['Rows failed', formatCount(item.rows_failed)],
              ['Duplicates', formatCount(item.duplicates)],
              ['Format', item.format.toUpperCase()],
              ['Started', formatInstant(item.started_at)],
              ['Finished', formatInstant(item.finished_at)],
            ]}
          />
        </div>
        {item.warnings.length ? (
          <Notice kind="warning">
            Rows named segments that are not static segments of the project (left out): {item.warnings.join(', ')}
          </Notice>
        ) : null}
        {item.status === 'done' ? (
          <p>
            <a href={href(['audience', 'leads'])}>See the leads</a>
          </p>
        ) : null}
      </Card>
      {finished && item.rows_failed > 0 ? <ErrorReport id={item.id} failed={item.rows_failed} /> : null}
    </>
  );
}
