/** The project's automations, newest first, one page of the API at a time, filtered by status. */
import { Pager, Table } from '../../components/table';
import { Badge, ErrorNote, Loading, PageHeader, SelectFilter } from '../../components/ui';
import { api, unwrap, type Schemas } from '../../lib/api';
import { formatInstant } from '../../lib/format';
import { href, replaceQuery, type Route } from '../../lib/router';
import { useLoad } from '../../lib/use-load';
import { TRIGGER_TYPE_WORDS } from './automation-words';

const PER_PAGE = '25';

/** The statuses the list's filter offers, in their order. */
export const AUTOMATION_STATUSES: readonly Schemas['AutomationStatus'][] = ['draft', 'active', 'paused', 'archived'];

/** The list: the status filter and the page live in the hash. */
export function AutomationList(props: { route: Route }) {
  const raw = props.route.query.get('status') ?? '';
  const status = (AUTOMATION_STATUSES as readonly string[]).includes(raw) ? (raw as Schemas['AutomationStatus']) : '';
  const page = Math.max(1, Number(props.route.query.get('page') ?? '1') || 1);
  const cursor = props.route.query.get('cursor') ?? undefined;
  const list = useLoad(
    () =>
      unwrap(
        api.GET('/v1/automations', {
          // The API refuses `page` together with `cursor`: a page past 1,000 entries goes by cursor alone.
          params: { query: { per_page: PER_PAGE, status: status || undefined, ...(cursor ? { cursor } : { page: String(page) }) } },
        }),
        // The filter travels with its answer: while the next filter loads, the table still says what it shows.
      ).then((answer) => ({ ...answer, status })),
    [status, page, cursor],
  );
  const rows = list.data?.data ?? [];
  const shown = list.data?.status ?? '';
  return (
    <>
      <PageHeader
        title="Automations"
        subtitle="Journeys a trigger starts for each lead. Newest first."
        actions={
          <a class="btn primary" href={href(['automations', 'new'])}>
            New automation
          </a>
        }
      />
      <div class="filters compact">
        <SelectFilter label="Status" id="automation-status" value={status} anyLabel="Any status" options={AUTOMATION_STATUSES} onChange={(value) => replaceQuery({ status: value || undefined })} />
      </div>
      <ErrorNote error={list.error} />
      {list.loading && !list.data ? <Loading /> : null}
      {list.data ? (
        <>
          <Table
            caption={shown ? `Automations: ${shown}` : 'Automations'}
            rows={rows}
            rowKey={(a) => a.id}
            empty={shown ? `No ${shown} automation.` : 'No automation yet: create one.'}
            columns={[
              { title: 'Name', cell: (a) => <a href={href(['automations', a.id])}>{a.name}</a> },
              { title: 'Status', cell: (a) => <Badge value={a.status} /> },
              { title: 'Trigger', cell: (a) => TRIGGER_TYPE_WORDS[a.trigger_type] },
              { title: 'Version', wide: true, cell: (a) => a.version },
              { title: 'Updated', wide: true, cell: (a) => formatInstant(a.updated_at) },
            ]}
          />
          <Pager
            label="Automation pages"
            info={{ ...list.data.pagination, page }}
            shown={rows.length}
            onPage={(next, nextCursor) => replaceQuery({ status: status || undefined, page: String(next), cursor: next > page ? nextCursor : undefined })}
          />
        </>
      ) : null}
    </>
  );
}
