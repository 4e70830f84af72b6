/** The activity list: every filter of part 4.11 as a form kept in the route's query, newest first, one page of 50 at a time. */
import { useEffect, useState } from 'preact/hooks';
import { Button, ErrorNote, Field, Loading, PageHeader } from '../../components/ui';
import { Badge } from '../../components/ui';
import { Pager, Table, type Column } from '../../components/table';
import { api, unwrap, type Schemas } from '../../lib/api';
import { formatInstant } from '../../lib/format';
import { href, replaceQuery, type Route } from '../../lib/router';
import { useLoad } from '../../lib/use-load';
import type { ProjectSession } from '../../lib/session';

type Activity = Schemas['ActivityRecord'];

/** The statuses an activity record can be in (part 3), in the order of a mail's life. */
export const ACTIVITY_STATUSES = ['queued', 'retrying', 'sent', 'delivered', 'bounced', 'complained', 'failed', 'suppressed', 'cancelled'] as const;

const PER_PAGE = 50;
/** Offset pages of `GET /v1/activity` reach 1,000 records deep. */
const DEEPEST_PAGE = 1000 / PER_PAGE;

/** The filters, as the API's query names them. */
const FILTERS = ['email', 'sender_domain', 'status', 'automation_run_id', 'campaign_id', 'since', 'until'] as const;
type FilterName = (typeof FILTERS)[number];
type Filters = Record<FilterName, string>;

/** The cursors of deep pages met in this tab, so that Previous can go back past page 20 (a reload starts over from page 1). */
const cursorsSeen = new Map<string, string>();
const filterKey = (filters: Filters): string => FILTERS.map((f) => filters[f]).join('|');

const filtersOf = (query: URLSearchParams): Filters => Object.fromEntries(FILTERS.map((f) => [f, query.get(f) ?? ''])) as Filters;

/** An ISO instant as a `datetime-local` value in the browser's zone (the control has no zone of its own). */
function toLocalInput(iso: string): string {
  const date = new Date(iso);
  if (!iso || Number.isNaN(date.getTime())) return '';
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}T${pad(date.getHours())}:${pad(date.getMinutes())}`;
}

/** A `datetime-local` value (local time) as an ISO instant for the API. */
const fromLocalInput = (value: string): string => (value ? new Date(value).toISOString() : '');

const columns: readonly Column<Activity>[] = [
  {
    title: 'Mail',
    cell: (a) => (
      <div class="mail-cell">
        <a href={href(['activity', a.id])}>{a.recipient_primary}</a>
        <span class="muted small">{a.subject || '(no subject)'}</span>
        <time class="muted small narrow-only" dateTime={a.created_at}>
          {formatInstant(a.created_at)}
        </time>
      </div>
    ),
  },
  {
    title: 'Status',
    cell: (a) => (
      <span class="inline">
        <Badge value={a.current_status} />
        {a.is_test ? <Badge value="test" tone="warn" /> : null}
      </span>
    ),
  },
  { title: 'From', cell: (a) => a.sender_email, wide: true },
  { title: 'Type', cell: (a) => a.email_type, wide: true },
  { title: 'Created', cell: (a) => <time dateTime={a.created_at}>{formatInstant(a.created_at)}</time>, wide: true },
];

/** The list view of Activity. */
export function ActivityList({ route, session }: { route: Route; session: ProjectSession }) {
  const applied = filtersOf(route.query);
  const page = Math.max(1, Number.parseInt(route.query.get('page') ?? '1', 10) || 1);
  const key = route.query.toString();
  const [draft, setDraft] = useState<Filters>(applied);
  // The form follows the route (back and forward, a link with filters).
  useEffect(() => setDraft(filtersOf(route.query)), [key]);

  const cursor = route.query.get('cursor') ?? undefined;
  const list = useLoad(() => {
    // Offset pages reach 1,000 records deep; deeper pages are read by the cursor of the page before.
    // A key's console shows its own mode's mail: the spec's Live view hides test sends, and a test key sees test mail only.
    const query: Record<string, string> = { per_page: String(PER_PAGE), is_test: String(session.mode === 'test'), ...(cursor ? { cursor } : { page: String(page) }) };
    for (const f of FILTERS) if (applied[f]) query[f] = applied[f];
    return unwrap(api.GET('/v1/activity', { params: { query } }));
  }, [key, session.mode]);
  const goTo = (target: number, nextCursor?: string) => {
    const filters = Object.fromEntries(FILTERS.map((f) => [f, applied[f]]));
    if (target <= DEEPEST_PAGE) return replaceQuery({ ...filters, page: target > 1 ? String(target) : undefined });
    const known = target === page + 1 ? nextCursor : cursorsSeen.get(`${filterKey(applied)}#${target}`);
    if (!known) return replaceQuery(filters);
    cursorsSeen.set(`${filterKey(applied)}#${target}`, known);
    return replaceQuery({ ...filters, page: String(target), cursor: known });
  };

  const submit = (event: Event) => {
    event.preventDefault();
    replaceQuery({ ...draft, page: undefined });
  };
  const clear = () => replaceQuery({});
  const set = (name: FilterName) => (event: Event) => setDraft({ ...draft, [name]: (event.currentTarget as HTMLInputElement).value });
  const filtered = FILTERS.some((f) => applied[f]);

  const data = list.data;
  // The page shown is the route's: an answer read by cursor numbers itself 1.
  const info = data
    ? { ...data.pagination, page, total: cursor ? null : data.pagination.total, total_pages: data.pagination.total_is_estimate || cursor ? null : data.pagination.total_pages }
    : undefined;

  return (
    <>
      <PageHeader
        title="Activity"
        subtitle={session.mode === 'test' ? 'Mail sent with the test key, newest first. Live mail is not shown to a test key.' : 'Live mail of the project, newest first. Test sends show in the test key\'s console.'}
      />
      <form class="card filters activity-filters" onSubmit={submit} aria-label="Filter the activity">
        <Field label="Recipient email" id="f-email">
          <input id="f-email" type="email" value={draft.email} onInput={set('email')} autoComplete="off" />
        </Field>
        <Field label="Sender domain" id="f-sender-domain">
          <input id="f-sender-domain" value={draft.sender_domain} onInput={set('sender_domain')} placeholder="mail.example.com" />
        </Field>
        <Field label="Status" id="f-status">
          <select id="f-status" value={draft.status} onChange={set('status')}>
            <option value="">Any status</option>
            {ACTIVITY_STATUSES.map((s) => (
              <option key={s} value={s}>
                {s}
              </option>
            ))}
          </select>
        </Field>
        <Field label="Campaign id" id="f-campaign">
          <input id="f-campaign" value={draft.campaign_id} onInput={set('campaign_id')} spellcheck={false} />
        </Field>
        <Field label="Automation run id" id="f-run">
          <input id="f-run" value={draft.automation_run_id} onInput={set('automation_run_id')} spellcheck={false} />
        </Field>
        <Field label="Created since" id="f-since">
          <input id="f-since" type="datetime-local" value={toLocalInput(draft.since)} onInput={(e) => setDraft({ ...draft, since: fromLocalInput(e.currentTarget.value) })} />
        </Field>
        <Field label="Created until" id="f-until">
          <input id="f-until" type="datetime-local" value={toLocalInput(draft.until)} onInput={(e) => setDraft({ ...draft, until: fromLocalInput(e.currentTarget.value) })} />
        </Field>
        <div class="actions filter-actions">
          <Button type="submit" variant="primary">
            Apply filters
          </Button>
          {filtered ? <Button onClick={clear}>Clear</Button> : null}
        </div>
      </form>
      <ErrorNote error={list.error} title="The activity could not be loaded" />
      {data ? (
        <>
          <p class="visually-hidden" role="status">
            {data.data.length === 0 ? 'No mail matches.' : `Page ${page}: ${data.data.length} mails.`}
          </p>
          <Table
            caption={filtered ? 'Mails matching the filters, newest first' : 'Mails, newest first'}
            columns={columns}
            rows={data.data}
            rowKey={(a) => a.id}
            empty={filtered ? 'No mail matches these filters.' : 'No mail yet. Send one from "Send a test mail".'}
          />
          <Pager info={info} shown={data.data.length} onPage={goTo} label="Activity pages" />
        </>
      ) : list.loading ? (
        <Loading label="Loading the activity…" />
      ) : null}
    </>
  );
}
