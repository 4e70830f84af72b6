/** The project's campaigns, newest first, one page of the API at a time, filtered by status. */
import { Pager, Table } from '../../components/table';
import { Badge, ErrorNote, Loading, PageHeader, SelectFilter } from '../../components/ui';
import { api, unwrap, type Schemas } from '../../lib/api';
import { formatCount, formatInstant } from '../../lib/format';
import { href, replaceQuery, type Route } from '../../lib/router';
import { useLoad } from '../../lib/use-load';

const PER_PAGE = '25';

/** Part 3's campaign states, as the list's filter offers them. */
export const CAMPAIGN_STATUSES: readonly Schemas['CampaignStatus'][] = ['initializing', 'pending', 'processing', 'rate_limited', 'paused', 'completed', 'failed', 'cancelled'];

/** The list: the status filter and the page live in the hash. */
export function CampaignList(props: { route: Route }) {
  const status = (props.route.query.get('status') ?? '') as Schemas['CampaignStatus'] | '';
  const page = Math.max(1, Number(props.route.query.get('page') ?? '1') || 1);
  const cursor = props.route.query.get('cursor') ?? undefined;
  const list = useLoad(
    () =>
      unwrap(
        api.GET('/v1/campaigns', {
          // The API refuses `page` together with `cursor`: a deep page goes by cursor alone.
          params: { query: { per_page: PER_PAGE, status: status || undefined, ...(cursor ? { cursor } : { page: String(page) }) } },
        }),
      ),
    [status, page, cursor],
  );
  const rows = list.data?.campaigns ?? [];
  return (
    <>
      <PageHeader
        title="Campaigns"
        subtitle="Newest first."
        actions={
          <a class="btn primary" href={href(['campaigns', 'new'])}>
            New campaign
          </a>
        }
      />
      <div class="filters compact">
        <SelectFilter label="Status" id="campaign-status" value={status} anyLabel="Any status" options={CAMPAIGN_STATUSES} optionLabel={(s) => s.replace(/_/g, ' ')} onChange={(value) => replaceQuery({ status: value || undefined })} />
      </div>
      <ErrorNote error={list.error} />
      {list.loading && !list.data ? <Loading /> : null}
      {list.data ? (
        <>
          <Table
            caption="Campaigns"
            rows={rows}
            rowKey={(c) => c.id}
            empty={status ? `No ${status.replace(/_/g, ' ')} campaign.` : 'No campaign yet: create one.'}
            columns={[
              { title: 'Name', cell: (c) => <a href={href(['campaigns', c.id])}>{c.name}</a> },
              { title: 'Status', cell: (c) => <Badge value={c.status} /> },
              { title: 'Sent', cell: (c) => `${formatCount(c.emails_sent)} of ${formatCount(c.total_recipients)}` },
              { title: 'Failed', wide: true, cell: (c) => formatCount(c.emails_failed) },
              { title: 'Subject', wide: true, cell: (c) => c.subject },
              { title: 'Created', wide: true, cell: (c) => formatInstant(c.created_at) },
            ]}
          />
          <Pager
            label="Campaign pages"
            info={{ ...list.data.pagination, page }}
            shown={rows.length}
            onPage={(next, nextCursor) => replaceQuery({ status: status || undefined, page: String(next), cursor: next > page ? nextCursor : undefined })}
          />
        </>
      ) : null}
    </>
  );
}
