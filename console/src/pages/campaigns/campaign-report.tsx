/** A campaign's report: each recipient's outcome (paged, by status), and the recipients left out and why (paged by cursor). */
import { useState } from 'preact/hooks';
import { Pager, Table, type PageInfo } from '../../components/table';
import { Badge, Card, ErrorNote, Loading, SelectFilter } from '../../components/ui';
import { api, unwrap, type Schemas } from '../../lib/api';
import { formatInstant } from '../../lib/format';
import { href } from '../../lib/router';
import { useLoad } from '../../lib/use-load';

const PER_PAGE = '25';
const OUTCOME_STATUSES = ['queued', 'retrying', 'sent', 'delivered', 'bounced', 'complained', 'failed', 'suppressed', 'cancelled'] as const;
type OutcomeStatus = (typeof OUTCOME_STATUSES)[number];

/** Where a list is: its page number (for the pager's words) and the cursor that reached it. */
interface Position {
  readonly page: number;
  readonly cursor?: string;
}

/** The report of campaign `id`; it reloads as `progress` (sent and failed) moves. */
export function CampaignReport(props: { id: string; progress: number; status: string }) {
  return (
    <>
      <Outcomes {...props} />
      <LeftOut {...props} />
    </>
  );
}

/** What one answer's pagination says, in the pager's terms: a filtered page has no total. */
function pageInfo(p: { per_page: number; next_cursor: string | null; total?: number; total_is_estimate?: boolean }, page: number): PageInfo {
  return { page, per_page: p.per_page, next_cursor: p.next_cursor, total: p.total, total_is_estimate: p.total_is_estimate };
}

function Outcomes(props: { id: string; progress: number; status: string }) {
  const [status, setStatus] = useState<OutcomeStatus | ''>('');
  const [at, setAt] = useState<Position>({ page: 1 });
  const list = useLoad(
    () =>
      unwrap(
        api.GET('/v1/campaigns/{id}/recipients', {
          // With a status the API pages by cursor only; without, by page (or cursor past 1,000).
          params: { path: { id: props.id }, query: { per_page: PER_PAGE, status: status || undefined, ...(at.cursor ? { cursor: at.cursor } : status ? {} : { page: String(at.page) }) } },
        }),
      ),
    [props.id, status, at, props.progress, props.status],
  );
  const rows: readonly Schemas['CampaignRecipientOutcome'][] = list.data?.recipients ?? [];
  return (
    <Card title="Recipients">
      <div class="filters compact">
        <SelectFilter
          label="Outcome"
          id="outcome-status"
          value={status}
          anyLabel="Any outcome"
          options={OUTCOME_STATUSES}
          onChange={(value) => {
            setStatus(value as OutcomeStatus | '');
            setAt({ page: 1 });
          }}
        />
      </div>
      <ErrorNote error={list.error} />
      {list.loading && !list.data ? <Loading /> : null}
      {list.data ? (
        <>
          <Table
            caption="Recipients and their outcomes"
            rows={rows}
            rowKey={(r) => r.activity_id}
            empty={status ? `No recipient is ${status} on this page of the campaign's records.` : 'No mail released yet.'}
            columns={[
              { title: 'Recipient', cell: (r) => <a href={href(['activity', r.activity_id])}>{r.email}</a> },
              { title: 'Status', cell: (r) => <Badge value={r.status} /> },
              { title: 'Opened', wide: true, cell: (r) => (r.opened ? formatInstant(r.opened_at) : r.machine_opened ? 'by a machine only' : 'no') },
              { title: 'Clicked', wide: true, cell: (r) => (r.clicked ? formatInstant(r.clicked_at) : 'no') },
              { title: 'Sent', wide: true, cell: (r) => formatInstant(r.sent_at) },
            ]}
          />
          <Pager
            label="Recipient pages"
            info={pageInfo(list.data.pagination, at.page)}
            shown={rows.length}
            onPage={(page, cursor) => setAt(page > at.page ? { page, cursor } : { page: 1 })}
          />
        </>
      ) : null}
    </Card>
  );
}

function LeftOut(props: { id: string; progress: number; status: string }) {
  const [at, setAt] = useState<Position>({ page: 1 });
  const list = useLoad(
    () => unwrap(api.GET('/v1/campaigns/{id}/left-out', { params: { path: { id: props.id }, query: { per_page: PER_PAGE, ...(at.cursor ? { cursor: at.cursor } : {}) } } })),
    [props.id, at, props.progress, props.status],
  );
  const rows: readonly Schemas['CampaignLeftOut'][] = list.data?.recipients ?? [];
  return (
    <Card title="Left out">
      <ErrorNote error={list.error} />
      {list.loading && !list.data ? <Loading /> : null}
      {list.data ? (
        <>
          <p class="muted">
            {list.data.left_out.total === 0 ? 'No recipient was left out.' : `${list.data.left_out.total} recipient(s) left out: suppressed, unsubscribed, or an address that cannot receive mail.`}
          </p>
          {rows.length > 0 ? (
            <Table
              caption="Recipients left out"
              rows={rows}
              rowKey={(r) => r.activity_id}
              columns={[
                { title: 'Recipient', cell: (r) => r.email },
                { title: 'Reason', cell: (r) => <Badge value={r.reason} tone="warn" /> },
                { title: 'Suppression', wide: true, cell: (r) => r.suppression_reason ?? '—' },
              ]}
            />
          ) : null}
          {list.data.left_out.total > 0 ? (
            // Back goes to the first page: this list pages forward by cursor only.
            <Pager label="Left-out pages" info={pageInfo(list.data.pagination, at.page)} shown={rows.length} onPage={(page, cursor) => setAt(page > at.page ? { page, cursor } : { page: 1 })} />
          ) : null}
        </>
      ) : null}
    </Card>
  );
}
