/** The recent webhook delivery attempts (3 days), what each receiver answered, and redelivery. */
import { useCallback, useState } from 'preact/hooks';
import { Table } from '../../components/table';
import { Badge, Button, Card, ErrorNote, Field, Loading, Notice } from '../../components/ui';
import { api, unwrap, type Schemas } from '../../lib/api';
import { formatInstant } from '../../lib/format';
import { href, replaceQuery, type Route } from '../../lib/router';
import type { ProjectSession } from '../../lib/session';
import { useLoad, usePoll } from '../../lib/use-load';
import { DeepPager, pageOf } from '../domains/deep-pager';

const PER_PAGE = 25;
/** How long a redelivery's outcome is watched for before the page stops asking. */
const WATCH_MS = 30_000;

type Delivery = Schemas['WebhookDelivery'];

/** A redelivery being followed: the new delivery's id and what is known of it so far. */
interface Watched {
  readonly deliveryId: string;
  readonly of: string;
  readonly since: number;
  readonly attempt?: Delivery;
  /** Past WATCH_MS: the page stopped asking. */
  readonly expired?: boolean;
}

/** The delivery log, newest first, with an outcome filter; each attempt's answer, and redeliver. */
export function Deliveries(props: { route: Route; session: ProjectSession }) {
  const query = props.route.query;
  const outcome = query.get('outcome') ?? '';
  const page = pageOf(query);
  const cursor = query.get('cursor') ?? undefined;
  const list = useLoad(
    () =>
      unwrap(
        api.GET('/v1/webhooks/deliveries', {
          params: { query: { ...(outcome ? { outcome } : {}), per_page: String(PER_PAGE), ...(cursor ? { cursor } : { page: String(page) }) } },
        }),
      ),
    [outcome, page, cursor],
  );
  const [watched, setWatched] = useState<Watched>();
  const [redeliverError, setRedeliverError] = useState<Error>();
  const [busyId, setBusyId] = useState<string>();

  const redeliver = async (entry: Delivery) => {
    setBusyId(entry.id);
    setRedeliverError(undefined);
    try {
      const queued = await unwrap(api.POST('/v1/webhooks/deliveries/{id}/redeliver', { params: { path: { id: entry.id } } }));
      setWatched({ deliveryId: queued.delivery_id, of: queued.redelivery_of, since: Date.now() });
    } catch (e) {
      setRedeliverError(e as Error);
    } finally {
      setBusyId(undefined);
    }
  };

  // The redelivery's own attempts are the newest entries of the log: the first page, unfiltered, shows them.
  const settled = watched?.attempt && (watched.attempt.outcome === 'succeeded' || watched.attempt.attempt >= watched.attempt.max_attempts);
  const watching = Boolean(watched && !settled && !watched.expired);
  const tick = useCallback(async () => {
    if (!watched) return;
    if (Date.now() - watched.since > WATCH_MS) {
      setWatched({ ...watched, expired: true });
      return;
    }
    const latest = await unwrap(api.GET('/v1/webhooks/deliveries', { params: { query: { per_page: '50' } } })).catch(() => undefined);
    const attempt = latest?.data.find((d) => d.delivery_id === watched.deliveryId);
    if (attempt && attempt.id !== watched.attempt?.id) {
      setWatched({ ...watched, attempt });
      list.reload();
    }
  }, [watched, list.reload]);
  usePoll(watching, 1000, tick);

  const rows = list.data?.data ?? [];
  return (
    <Card title="Recent deliveries">
      <p class="muted card-intro">Every attempt of the last 3 days, newest first{props.session.mode === 'test' ? ' (this project\'s, live and dev slots alike)' : ''}.</p>
      <form class="filters compact" aria-label="Filter deliveries" onSubmit={(e) => e.preventDefault()}>
        <Field label="Outcome" id="delivery-outcome">
          <select id="delivery-outcome" value={outcome} onChange={(e) => replaceQuery({ outcome: e.currentTarget.value })}>
            <option value="">Every attempt</option>
            <option value="failed">Failures only</option>
            <option value="succeeded">Successes only</option>
          </select>
        </Field>
        <Button onClick={list.reload} busy={list.loading && Boolean(list.data)}>
          Refresh
        </Button>
      </form>
      <ErrorNote error={redeliverError} title="The redelivery was not queued" />
      {watched ? <RedeliveryNote watched={watched} watching={watching} /> : null}
      <ErrorNote error={list.error} title="The deliveries could not be read" />
      {list.loading && !list.data ? <Loading label="Loading deliveries…" /> : null}
      {list.data ? (
        <Table<Delivery>
          caption="Webhook delivery attempts"
          rowKey={(d) => d.id}
          rows={rows}
          empty={outcome === 'failed' ? 'No failed attempt in the last 3 days.' : 'No delivery in the last 3 days.'}
          columns={[
            { title: 'Time', wide: true, cell: (d) => formatInstant(d.attempted_at) },
            {
              title: 'Event',
              cell: (d) => (
                <>
                  <span class="phone-only muted small-note">{formatInstant(d.attempted_at)}</span>
                  <code class="event-name">{d.event}</code>
                  {d.activity_id ? (
                    <>
                      {' '}
                      <a href={href(['activity', d.activity_id])} aria-label={`The mail of this ${d.event}`}>
                        mail
                      </a>
                    </>
                  ) : null}
                  {d.redelivery_of ? <span class="muted small-note">redelivery</span> : null}
                </>
              ),
            },
            {
              title: 'Outcome',
              cell: (d) => (
                <>
                  <Badge value={d.outcome} tone={d.outcome === 'succeeded' ? 'good' : 'bad'} />
                  <span class="phone-only small-note">{d.status === null ? (d.error ?? '') : `HTTP ${d.status}`}</span>
                </>
              ),
            },
            { title: 'Status', wide: true, cell: (d) => (d.status === null ? '—' : String(d.status)) },
            { title: 'Attempt', wide: true, cell: (d) => `${d.attempt} of ${d.max_attempts}` },
            { title: 'Answer', wide: true, cell: (d) => <Answer d={d} /> },
            { title: 'URL', wide: true, cell: (d) => <span class="mono url-text">{d.url} ({d.slot})</span> },
            {
              title: 'Action',
              cell: (d) => (
                <Button
                  class="small"
                  busy={busyId === d.id}
                  disabled={!d.redeliverable}
                  title={d.redeliverable ? undefined : 'The payload was too big to keep: it cannot be redelivered'}
                  aria-label={`Redeliver ${d.event} of ${formatInstant(d.attempted_at)} (${d.outcome})`}
                  onClick={() => redeliver(d)}
                >
                  Redeliver
                </Button>
              ),
            },
          ]}
        />
      ) : null}
      <DeepPager
        label="Delivery pages"
        info={list.data?.pagination}
        shown={rows.length}
        cursor={cursor}
        onPage={(p) => replaceQuery({ outcome, page: String(p) })}
        onCursor={(c) => replaceQuery({ outcome, cursor: c })}
      />
    </Card>
  );
}

/** What the receiver answered: the error, the duration, the start of the body. */
function Answer(props: { d: Delivery }) {
  const { d } = props;
  return (
    <div class="answer">
      {d.error ? <span class="answer-error">{d.error}</span> : null}
      <span class="muted answer-time">{d.duration_ms} ms</span>
      {d.response_excerpt ? (
        <details>
          <summary>Body</summary>
          <pre>{d.response_excerpt}</pre>
        </details>
      ) : null}
    </div>
  );
}

/** The followed redelivery's outcome, announced as it changes. */
function RedeliveryNote(props: { watched: Watched; watching: boolean }) {
  const { attempt, deliveryId } = props.watched;
  if (!attempt) {
    return <Notice kind="info">{props.watching ? `Redelivery ${deliveryId} queued; waiting for its first attempt…` : `Redelivery ${deliveryId} queued. Refresh to see its attempts.`}</Notice>;
  }
  if (attempt.outcome === 'succeeded') {
    return <Notice kind="success">Redelivery {deliveryId} succeeded: the receiver answered {attempt.status ?? 'with no status'}.</Notice>;
  }
  const final = attempt.attempt >= attempt.max_attempts;
  return (
    <Notice kind="warning">
      Redelivery {deliveryId} failed (attempt {attempt.attempt} of {attempt.max_attempts}: {attempt.error ?? `HTTP ${attempt.status}`}).{final ? '' : ' It will be retried.'}
    </Notice>
  );
}

type Failure = Schemas['WebhookFailure'];

/** Deliveries that failed for good (every attempt spent), newest first, one page at a time. */
export function FailedForGood(props: { route: Route }) {
  const query = props.route.query;
  const page = Number(query.get('failed_page')) >= 1 ? Math.floor(Number(query.get('failed_page'))) : 1;
  const cursor = query.get('failed_cursor') ?? undefined;
  const list = useLoad(
    () => unwrap(api.GET('/v1/webhooks/failures', { params: { query: { per_page: String(PER_PAGE), ...(cursor ? { cursor } : { page: String(page) }) } } })),
    [page, cursor],
  );
  const rows = list.data?.data ?? [];
  // The deliveries' own filter and page stay as they are.
  const keep = Object.fromEntries([...query.entries()].filter(([k]) => k !== 'failed_page' && k !== 'failed_cursor'));
  return (
    <Card title="Failed for good">
      <p class="muted card-intro">Deliveries whose every attempt failed. Redeliver one from its last attempt under Recent deliveries.</p>
      <ErrorNote error={list.error} title="The failed deliveries could not be read" />
      {list.loading && !list.data ? <Loading label="Loading failed deliveries…" /> : null}
      {list.data ? (
        <Table<Failure>
          caption="Deliveries that failed for good"
          rowKey={(f) => f.delivery_id}
          rows={rows}
          empty="No delivery has failed for good."
          columns={[
            { title: 'Failed', cell: (f) => formatInstant(f.failed_at) },
            { title: 'Event', cell: (f) => <code class="event-name">{f.event}</code> },
            { title: 'Last answer', cell: (f) => f.last_error ?? (f.last_status === null ? '—' : `HTTP ${f.last_status}`) },
            { title: 'Attempts', wide: true, cell: (f) => String(f.attempts) },
            { title: 'URL', wide: true, cell: (f) => <span class="mono url-text">{f.url} ({f.slot})</span> },
            { title: 'Delivery', wide: true, cell: (f) => <span class="mono url-text">{f.delivery_id}</span> },
          ]}
        />
      ) : null}
      <DeepPager
        label="Failed delivery pages"
        info={list.data?.pagination}
        shown={rows.length}
        cursor={cursor}
        onPage={(p) => replaceQuery({ ...keep, failed_page: String(p) })}
        onCursor={(c) => replaceQuery({ ...keep, failed_cursor: c })}
      />
    </Card>
  );
}
