/** One mail: its fields, its timeline, its HTML in a sandboxed frame, its headers and its webhook deliveries; polled until its status is final. */
import type { ComponentChildren } from 'preact';
import { useState } from 'preact/hooks';
import { Badge, Button, Card, Details, ErrorNote, Loading, PageHeader } from '../../components/ui';
import { Table, type Column } from '../../components/table';
import { api, unwrap, type Schemas } from '../../lib/api';
import { formatInstant } from '../../lib/format';
import { href } from '../../lib/router';
import { useLoad, usePoll } from '../../lib/use-load';

type Activity = Schemas['ActivityRecord'];
type ActivityEvent = Schemas['ActivityEvent'];
type Delivery = Schemas['WebhookDelivery'];

/** Statuses a mail still moves on from by itself (SES has not said how it ended yet). */
const MOVING: readonly string[] = ['queued', 'retrying', 'sent'];

const POLL_MS = 1500;

/** The detail view of one mail, `#/activity/<id>`. */
export function ActivityDetail({ id }: { id: string }) {
  const record = useLoad(() => unwrap(api.GET('/v1/activity/{id}', { params: { path: { id }, query: { include: 'events,html,text,headers' } } })), [id]);
  const activity = record.data?.data;
  const moving = activity ? MOVING.includes(activity.current_status) : false;
  usePoll(moving, POLL_MS, record.reload);

  return (
    <>
      <p class="back">
        <a href={href(['activity'])}>← All activity</a>
      </p>
      <PageHeader title={activity ? `Mail to ${activity.recipient_primary}` : 'Mail'} subtitle={activity ? activity.subject || '(no subject)' : undefined} />
      <ErrorNote error={record.error} title="The mail could not be loaded" />
      {activity ? <Loaded activity={activity} moving={moving} /> : record.loading ? <Loading label="Loading the mail…" /> : null}
    </>
  );
}

function Loaded({ activity, moving }: { activity: Activity; moving: boolean }) {
  return (
    <>
      <Card title="Status">
        <div class="inline status-line" role="status" aria-live="polite">
          <Badge value={activity.current_status} />
          {activity.is_test ? <Badge value="test mail" tone="warn" /> : null}
          <span class="muted">{moving ? 'Not final yet: this view refreshes by itself.' : 'Final status.'}</span>
        </div>
        {activity.error_message ? (
          <p class="notice error">
            {activity.error_code ? <code>{activity.error_code}</code> : null} {activity.error_message}
          </p>
        ) : null}
        {activity.suppression_reason ? <p class="notice warning">Not sent: the recipient is suppressed ({activity.suppression_reason}).</p> : null}
        <Details
          items={[
            ['Activity id', <code>{activity.id}</code>],
            ['SES message id', activity.message_id ? <code>{activity.message_id}</code> : 'not sent yet'],
            ['Recipient', activity.recipient_primary],
            ['From', activity.sender_name ? `${activity.sender_name} <${activity.sender_email}>` : activity.sender_email],
            ['Type', activity.email_type],
            ['Created', formatInstant(activity.created_at)],
            ['Sent', formatInstant(activity.sent_at)],
            ['Delivered', formatInstant(activity.delivered_at)],
            // The rest only when the mail has them: most mails have none.
            ...present([
              ['Bounced', activity.bounced_at && formatInstant(activity.bounced_at)],
              ['Complained', activity.complained_at && formatInstant(activity.complained_at)],
              ['First opened', activity.opened_first_at && formatInstant(activity.opened_first_at)],
              ['First clicked', activity.clicked_first_at && formatInstant(activity.clicked_first_at)],
              ['Environment', activity.environment],
              ['Campaign', activity.campaign_id && <a href={href(['campaigns', activity.campaign_id])}>{activity.campaign_id}</a>],
              ['Automation run', activity.automation_run_id],
              ['Template', activity.template_id && <a href={href(['templates', activity.template_id])}>{activity.template_id}</a>],
              ['Batch', activity.batch_id],
              ['Thread', activity.thread_id],
              ['Source', activity.source],
            ]),
          ]}
        />
        {activity.metadata ? (
          <>
            <h3>Metadata</h3>
            <pre>{JSON.stringify(activity.metadata, null, 2)}</pre>
          </>
        ) : null}
      </Card>
      <Card title="Timeline">
        <Timeline activity={activity} />
      </Card>
      <Card title="Headers">
        <HeadersView activity={activity} />
      </Card>
      <Card title="Content">
        <Content activity={activity} />
      </Card>
      <Card title="Webhooks">
        <Webhooks activityId={activity.id} moving={moving} />
      </Card>
    </>
  );
}

/** The items that have a value. */
function present(items: readonly (readonly [string, ComponentChildren])[]): (readonly [string, ComponentChildren])[] {
  return items.filter(([, value]) => value !== null && value !== undefined && value !== '');
}

/** What an event adds to its type: the bounce's kind, the complaint's, the link clicked, the client. */
function eventDetail(e: ActivityEvent): string {
  const parts = [
    e.bounce_type ? `${e.bounce_type}${e.bounce_subtype ? ` / ${e.bounce_subtype}` : ''}` : null,
    e.complaint_feedback_type,
    e.url_clicked,
    e.user_agent,
    e.ip_address,
  ].filter((p): p is string => Boolean(p));
  return parts.join(' · ');
}

/** The mail's events in time order, from its acceptance by the API. */
function Timeline({ activity }: { activity: Activity }) {
  const events = [...(activity.events ?? [])].sort((a, b) => a.event_timestamp.localeCompare(b.event_timestamp));
  return (
    <ol class="timeline" aria-label="Events of this mail, oldest first">
      <li>
        <strong>accepted</strong> <time dateTime={activity.created_at}>{formatInstant(activity.created_at)}</time>
        <span class="muted small"> · queued by the API</span>
      </li>
      {events.map((e) => {
        const detail = eventDetail(e);
        return (
          <li key={e.id}>
            <strong>{e.event_type.replace(/_/g, ' ')}</strong> <time dateTime={e.event_timestamp}>{formatInstant(e.event_timestamp)}</time>
            {detail ? <span class="muted small event-detail"> · {detail}</span> : null}
          </li>
        );
      })}
      {events.length === 0 ? <li class="muted">No event from SES yet.</li> : null}
    </ol>
  );
}

/** The headers the API kept for the mail; what it does not keep is said, not guessed. */
function HeadersView({ activity }: { activity: Activity }) {
  const headers = activity.headers;
  if (!headers) return <p class="muted">The headers of this mail are not available: its body is not kept (not written yet, or past its retention).</p>;
  return (
    <>
      <dl class="headers">
        {headers.map((h, i) => (
          <div key={`${h.name}-${i}`}>
            <dt>{h.name}:</dt>
            <dd>{h.value}</dd>
          </div>
        ))}
      </dl>
      <p class="muted small">The headers the API set. Those SES and the sender add on the way (Message-ID, Date, DKIM-Signature, List-Unsubscribe) are not kept.</p>
    </>
  );
}

/** The HTML in an empty-sandbox frame (no script, no same origin, no forms, no navigation), and the text part. */
function Content({ activity }: { activity: Activity }) {
  const html = activity.html_content;
  const text = activity.text_content;
  return (
    <>
      <h3>HTML</h3>
      {html === null || html === undefined ? (
        <p class="muted">The HTML of this mail is not available: its body is not kept (not written yet, or past its retention).</p>
      ) : (
        <>
          <iframe class="mail-preview" sandbox="" srcdoc={html} title={`HTML of the mail to ${activity.recipient_primary}`} />
          <details class="source">
            <summary>HTML source</summary>
            <pre>{html}</pre>
          </details>
        </>
      )}
      <h3>Text part</h3>
      {text === null || text === undefined ? <p class="muted">The text part of this mail is not available: its body is not kept.</p> : <pre class="text-part">{text}</pre>}
    </>
  );
}

const deliveryColumns: readonly Column<Delivery>[] = [
  {
    title: 'Event',
    cell: (d) => (
      <>
        {d.event}
        <time class="muted small narrow-only" dateTime={d.attempted_at}>
          {formatInstant(d.attempted_at)}
        </time>
      </>
    ),
  },
  {
    title: 'Outcome',
    cell: (d) => (
      <span class="inline">
        <Badge value={d.outcome === 'succeeded' ? 'succeeded' : 'failed'} tone={d.outcome === 'succeeded' ? 'good' : 'bad'} />
        <span class="muted small">{d.status !== null ? `HTTP ${d.status}` : (d.error ?? '')}</span>
      </span>
    ),
  },
  { title: 'Attempt', cell: (d) => `${d.attempt} of ${d.max_attempts}`, wide: true },
  { title: 'URL', cell: (d) => <span class="mono">{d.url}</span>, wide: true },
  { title: 'When', cell: (d) => <time dateTime={d.attempted_at}>{formatInstant(d.attempted_at)}</time>, wide: true },
];

/** The webhook deliveries about this mail (the log keeps 3 days), one page at a time. */
function Webhooks({ activityId, moving }: { activityId: string; moving: boolean }) {
  const [cursor, setCursor] = useState<string>();
  const list = useLoad(
    () => unwrap(api.GET('/v1/webhooks/deliveries', { params: { query: { activity_id: activityId, per_page: '50', ...(cursor ? { cursor } : {}) } } })),
    [activityId, cursor],
  );
  // New events bring new deliveries while the mail moves on.
  usePoll(moving && !cursor, POLL_MS * 2, list.reload);
  const next = list.data?.pagination.next_cursor;
  return (
    <>
      <div class="inline webhooks-head">
        <p class="muted small">Attempts of the last 3 days to post this mail's events to your webhook URLs, newest first.</p>
        <Button class="small" onClick={list.reload} busy={list.loading}>
          Refresh
        </Button>
      </div>
      <ErrorNote error={list.error} title="The webhook deliveries could not be loaded" />
      {list.data ? (
        <>
          <Table caption="Webhook deliveries of this mail" columns={deliveryColumns} rows={list.data.data} rowKey={(d) => d.id} empty="No webhook delivery for this mail (none configured, or none yet)." />
          <div class="actions pager">
            {cursor ? <Button onClick={() => setCursor(undefined)}>Newest</Button> : null}
            {next ? <Button onClick={() => setCursor(next)}>Older deliveries</Button> : null}
          </div>
        </>
      ) : list.loading ? (
        <Loading label="Loading the webhook deliveries…" />
      ) : null}
    </>
  );
}
