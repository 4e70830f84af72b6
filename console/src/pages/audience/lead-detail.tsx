/** One lead: its attributes, tags and segments, its custom events and its mail, each list paged by the API. */
import { Pager, Table, type Column } from '../../components/table';
import { Badge, Card, Details, ErrorNote, Loading } from '../../components/ui';
import { api, unwrap, type Schemas } from '../../lib/api';
import { formatInstant } from '../../lib/format';
import { href } from '../../lib/router';
import { useLoad } from '../../lib/use-load';
import { morePages, useBoundedPages } from './bounded-pages';
import { leadAttributes, leadName, leadTags } from './lead-fields';
import { useSegments } from './segments';

/** Rows of each list on the detail (events, mail). */
const PER_PAGE = 10;

/** An attribute's value as text: strings as they are, anything else as JSON. */
function attributeText(value: unknown): string {
  return typeof value === 'string' ? value : JSON.stringify(value);
}

const eventColumns: readonly Column<Schemas['CustomEvent']>[] = [
  { title: 'Event', cell: (e) => <code>{e.event}</code> },
  { title: 'When', cell: (e) => formatInstant(e.timestamp) },
  { title: 'Properties', cell: (e) => (Object.keys(e.properties).length ? <code class="props">{JSON.stringify(e.properties)}</code> : '—'), wide: true },
];

const mailColumns: readonly Column<Schemas['ActivityRecord']>[] = [
  { title: 'Subject', cell: (a) => <a href={href(['activity', a.id])}>{a.subject || '(no subject)'}</a> },
  { title: 'Status', cell: (a) => <Badge value={a.current_status} /> },
  { title: 'Type', cell: (a) => a.email_type, wide: true },
  { title: 'Created', cell: (a) => formatInstant(a.created_at), wide: true },
];

/** A lead's detail (`#/audience/leads/<id>`). */
export function LeadDetail({ id }: { id: string }) {
  const lead = useLoad(async () => (await unwrap(api.GET('/v1/leads/{id}', { params: { path: { id } } }))).lead, [id]);
  const segments = useSegments();
  const email = lead.data?.email;
  const eventPages = useBoundedPages(PER_PAGE);
  const mailPages = useBoundedPages(PER_PAGE);
  const events = useLoad(async () => (email ? unwrap(api.GET('/v1/events', { params: { query: { email, ...eventPages.query } } })) : undefined), [email, eventPages.page]);
  const mail = useLoad(async () => (email ? unwrap(api.GET('/v1/activity', { params: { query: { email, ...mailPages.query } } })) : undefined), [email, mailPages.page]);

  if (lead.error) return <ErrorNote error={lead.error} title="The lead could not be read" />;
  if (!lead.data) return <Loading label="Loading the lead…" />;
  const l = lead.data;
  const names = new Map((segments.data ?? []).map((s) => [s.id, s.name]));
  const tags = leadTags(l);
  const attributes = leadAttributes(l);

  return (
    <>
      <p>
        <a href={href(['audience', 'leads'])}>← All leads</a>
      </p>
      <Card title={l.email}>
        <Details
          items={[
            ['Name', leadName(l) ?? '—'],
            ['Marketing', <Badge value={l.marketing_status} />],
            ['Created', formatInstant(l.created_at)],
            ['Updated', formatInstant(l.updated_at)],
            ['Store customer', l.storeplatform_customer_id ?? '—'],
          ]}
        />
      </Card>
      <div class="grid card-pair">
        <Card title="Attributes">
          {attributes.length ? <Details items={attributes.map(([k, v]) => [k, attributeText(v)] as const)} /> : <p class="empty">No attributes.</p>}
        </Card>
        <Card title="Tags and segments">
          <h3 class="subhead">Tags</h3>
          {tags.length ? (
            <ul class="chips">
              {tags.map((t) => (
                <li key={t}>{t}</li>
              ))}
            </ul>
          ) : (
            <p class="empty">No tags.</p>
          )}
          <h3 class="subhead">Segments</h3>
          {l.segment_ids?.length ? (
            <ul class="chips">
              {l.segment_ids.map((s) => (
                <li key={s}>
                  <a href={href(['audience', 'leads'], { segment_id: s })}>{names.get(s) ?? s}</a>
                </li>
              ))}
            </ul>
          ) : (
            <p class="empty">In no segment.</p>
          )}
        </Card>
      </div>
      <Card title="Events">
        <ErrorNote error={events.error} />
        {events.data ? (
          <>
            <Table caption={`Custom events of ${l.email}`} columns={eventColumns} rows={events.data.data} rowKey={(e) => e.id} empty="No events recorded for this lead." />
            {morePages(eventPages.page, events.data.pagination) ? <Pager label="Event pages" info={eventPages.info(events.data.pagination)} shown={events.data.data.length} onPage={eventPages.turn} /> : null}
          </>
        ) : events.loading ? (
          <Loading label="Loading events…" />
        ) : null}
      </Card>
      <Card title="Mail">
        <ErrorNote error={mail.error} />
        {mail.data ? (
          <>
            <Table caption={`Mail to ${l.email}`} columns={mailColumns} rows={mail.data.data} rowKey={(a) => a.id} empty="No mail sent to this lead." />
            {morePages(mailPages.page, mail.data.pagination) ? <Pager label="Mail pages" info={mailPages.info(mail.data.pagination)} shown={mail.data.data.length} onPage={mailPages.turn} /> : null}
          </>
        ) : mail.loading ? (
          <Loading label="Loading mail…" />
        ) : null}
      </Card>
    </>
  );
}
