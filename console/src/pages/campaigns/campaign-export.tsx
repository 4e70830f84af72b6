/** The CSV export of a campaign's outcomes: start it, follow it until it is ready, then download it. */
import { useCallback, useState } from 'preact/hooks';
import { Button, Card, ErrorNote } from '../../components/ui';
import { api, unwrap, type Schemas } from '../../lib/api';
import { formatCount, formatInstant } from '../../lib/format';
import { usePoll } from '../../lib/use-load';

const POLL_MS = 1500;

/** The export card of campaign `id`. */
export function CampaignExport(props: { id: string }) {
  const [current, setCurrent] = useState<Schemas['CampaignExport']>();
  const [error, setError] = useState<Error>();
  const [starting, setStarting] = useState(false);

  const start = async () => {
    setStarting(true);
    setError(undefined);
    try {
      setCurrent((await unwrap(api.POST('/v1/campaigns/{id}/exports', { params: { path: { id: props.id } } }))).export);
    } catch (e) {
      setError(e as Error);
    } finally {
      setStarting(false);
    }
  };

  const exportId = current?.id;
  const tick = useCallback(() => {
    if (!exportId) return;
    unwrap(api.GET('/v1/campaigns/{id}/exports/{exportId}', { params: { path: { id: props.id, exportId } } })).then(
      (a) => setCurrent(a.export),
      (e: Error) => setError(e),
    );
  }, [props.id, exportId]);
  usePoll(current?.status === 'running', POLL_MS, tick);

  return (
    <Card title="CSV export">
      <p class="muted">Every recipient's outcome in one CSV file; the download link works for an hour.</p>
      <ErrorNote error={error} title="Export" />
      <div class="inline" role="status" aria-live="polite">
        {current?.status === 'running' ? <span>Preparing the CSV… {formatCount(current.rows)} rows so far.</span> : null}
        {current?.status === 'failed' ? <span class="notice error">The export failed: {current.error ?? 'no reason given'}</span> : null}
        {current?.status === 'completed' && current.download_url ? (
          <>
            <a class="btn primary" href={current.download_url} download={`campaign-${props.id}.csv`}>
              Download CSV
            </a>
            <span class="muted">
              {formatCount(current.rows)} rows, ready {formatInstant(current.completed_at)}
            </span>
          </>
        ) : null}
      </div>
      {current?.status !== 'running' ? (
        <Button busy={starting} onClick={() => void start()} class="export-start">
          {current ? 'Export again' : 'Export as CSV'}
        </Button>
      ) : null}
    </Card>
  );
}
