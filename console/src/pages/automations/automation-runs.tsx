/** An automation's runs, newest first, one page of the API at a time, filtered by state. */
import { useState } from 'preact/hooks';
import { Table } from '../../components/table';
import { Badge, Button, Card, ErrorNote, Loading, SelectFilter } from '../../components/ui';
import { api, unwrap } from '../../lib/api';
import { formatInstant } from '../../lib/format';
import { href } from '../../lib/router';
import { useLoad } from '../../lib/use-load';
import { endReasonWords, RUN_STATE_TONES, RUN_STATES, type RunState } from './run-words';

const PER_PAGE = '25';

/**
 * The Runs card. The API reads a page of runs and keeps those in the state asked for, so a filtered
 * page may hold fewer rows than the page size while more follow: "Next" goes on by the answer's
 * cursor, "Newest" back to the start. `refresh` changes when the page should be read again (an
 * enrolment, the Refresh button of the view).
 */
export function AutomationRuns(props: { automationId: string; refresh: number; onRefresh: () => void }) {
  const { automationId } = props;
  const [state, setState] = useState<RunState | ''>('');
  const [cursor, setCursor] = useState<string>();
  const [pageNumber, setPageNumber] = useState(1);
  const list = useLoad(
    () =>
      unwrap(api.GET('/v1/automations/{id}/runs', { params: { path: { id: automationId }, query: { per_page: PER_PAGE, state: state || undefined, cursor } } })).then((answer) => ({
        ...answer,
        state,
      })),
    [automationId, state, cursor, props.refresh],
  );
  const rows = list.data?.data ?? [];
  const shown = list.data?.state ?? '';
  const next = list.data?.next_cursor ?? null;
  const choose = (value: string) => {
    setState(value as RunState | '');
    setCursor(undefined);
    setPageNumber(1);
  };
  return (
    <Card
      title="Runs"
      actions={
        <Button busy={list.loading && Boolean(list.data)} onClick={props.onRefresh}>
          Refresh
        </Button>
      }
    >
      <div class="filters compact">
        <SelectFilter label="State" id="run-state" value={state} anyLabel="Any state" options={RUN_STATES} onChange={choose} />
      </div>
      <ErrorNote error={list.error} />
      {list.loading && !list.data ? <Loading label="Loading runs…" /> : null}
      {list.data ? (
        <>
          <Table
            caption={shown ? `Runs: ${shown}` : 'Runs'}
            rows={rows}
            rowKey={(r) => r.id}
            empty={shown ? `No ${shown} run on this page${next ? ': the next page may hold some' : ''}.` : cursor ? 'No more runs.' : 'No run yet: enroll leads, or wait for the trigger.'}
            columns={[
              {
                title: 'Email',
                cell: (r) => (
                  <a class="run-email" href={href(['automations', automationId, 'runs', r.id])} aria-label={`Run of ${r.email}`}>
                    {r.email}
                  </a>
                ),
              },
              { title: 'State', cell: (r) => <Badge value={r.state} tone={RUN_STATE_TONES[r.state]} /> },
              {
                title: 'Current step',
                cell: (r) =>
                  r.step ? (
                    <a class="run-step" href={href(['automations', automationId], { step: r.step })} aria-label={`Step ${r.step} in the flow`}>
                      <code>{r.step}</code>
                    </a>
                  ) : (
                    <span class="muted">—</span>
                  ),
              },
              { title: 'Started', wide: true, cell: (r) => formatInstant(r.started_at) },
              { title: 'Due', wide: true, cell: (r) => formatInstant(r.due_at) },
              { title: 'End reason', wide: true, cell: (r) => endReasonWords(r.end_reason) },
            ]}
          />
          <nav class="pager" aria-label="Run pages">
            <button type="button" class="btn plain small" disabled={!cursor} onClick={() => { setCursor(undefined); setPageNumber(1); }}>
              Newest
            </button>
            <span>Page {pageNumber}</span>
            <button type="button" class="btn plain small" disabled={!next} onClick={() => { setCursor(next ?? undefined); setPageNumber(pageNumber + 1); }}>
              Next
            </button>
          </nav>
        </>
      ) : null}
    </Card>
  );
}
