/** One run of an automation: its fields and its timeline, each step it began and what came of it. */
import { Badge, Card, Details, ErrorNote, Loading, PageHeader } from '../../components/ui';
import { api, unwrap } from '../../lib/api';
import { formatInstant } from '../../lib/format';
import { href } from '../../lib/router';
import { useLoad } from '../../lib/use-load';
import { STEP_TYPE_WORDS, type Step } from './automation-words';
import { endReasonWords, outcomeWords, RUN_STATE_TONES, type RunEntry } from './run-words';

/** A step's type in words (a type this console does not know keeps its token). */
const typeWords = (type: string) => STEP_TYPE_WORDS[type as Step['type']] ?? type;

/** The run's timeline, oldest step first, on the console's `.timeline`. */
function RunTimeline(props: { automationId: string; entries: readonly RunEntry[] }) {
  const stepLink = (step: string) => href(['automations', props.automationId], { step });
  if (props.entries.length === 0) return <p class="muted">No step begun yet: the run is about to start.</p>;
  return (
    <ol class="timeline run-timeline" aria-label="Steps of this run, oldest first">
      {props.entries.map((entry) => {
        const activity = typeof entry.detail.activity_id === 'string' ? entry.detail.activity_id : undefined;
        const event = typeof entry.detail.event_id === 'string' ? entry.detail.event_id : undefined;
        return (
          <li key={entry.seq} data-seq={entry.seq} class={`run-entry outcome-${entry.outcome}`}>
            <div class="run-entry-head">
              <span class="run-seq">#{entry.seq}</span>
              <a href={stepLink(entry.step_id)}>
                step <code>{entry.step_id}</code>
              </a>
              <span class="muted">{typeWords(entry.type)}</span>
              <time class="muted small" dateTime={entry.at}>
                {formatInstant(entry.at)}
              </time>
            </div>
            <p class="run-outcome">
              <strong>{outcomeWords(entry)}</strong>
            </p>
            <p class="muted small run-detail">
              {activity ? (
                <>
                  <a href={href(['activity', activity])}>{entry.outcome === 'sent' ? 'The mail' : 'The activity record'}</a> (activity <code>{activity}</code>)
                  {' · '}
                </>
              ) : null}
              {event ? (
                <>
                  {entry.outcome === 'posted' ? 'webhook event' : 'event'} <code>{event}</code>
                  {' · '}
                </>
              ) : null}
              {entry.next ? (
                <>
                  then{' '}
                  <a href={stepLink(entry.next)}>
                    step <code>{entry.next}</code>
                  </a>
                </>
              ) : entry.outcome === 'waiting' ? (
                'the wait decides the next step'
              ) : (
                'the run ends here'
              )}
            </p>
          </li>
        );
      })}
    </ol>
  );
}

/** `#/automations/<id>/runs/<runId>`: the run's fields and its timeline. */
export function RunView(props: { automationId: string; runId: string }) {
  const { automationId, runId } = props;
  const read = useLoad(() => unwrap(api.GET('/v1/automation-runs/{id}', { params: { path: { id: runId } } })).then((a) => a.data), [runId]);
  const run = read.data;
  const back = <a href={href(['automations', automationId])}>Back to the automation</a>;
  if (!run) {
    return (
      <>
        <PageHeader title="Run" subtitle={back} />
        <ErrorNote error={read.error} />
        {read.error ? null : <Loading label="Loading the run…" />}
      </>
    );
  }
  return (
    <>
      <PageHeader
        title={`Run of ${run.email}`}
        subtitle={
          <>
            {back} · version {run.version}
          </>
        }
        actions={
          <button type="button" class="btn plain" onClick={read.reload} disabled={read.loading}>
            Refresh
          </button>
        }
      />
      <ErrorNote error={read.error} title="The run could not be read again" />
      <Card title="Run" class="compact-details">
        <div class="progress-line">
          <Badge value={run.state} tone={RUN_STATE_TONES[run.state]} />
          {run.step ? (
            <span>
              at{' '}
              <a href={href(['automations', automationId], { step: run.step })}>
                step <code>{run.step}</code>
              </a>
            </span>
          ) : null}
        </div>
        <Details
          items={[
            ['Lead', <a href={href(['audience', 'leads', run.lead_id])}>{run.email}</a>],
            ['Run id', <code>{run.id}</code>],
            ['Version', String(run.version)],
            ['Started', formatInstant(run.started_at)],
            ['Updated', formatInstant(run.updated_at)],
            ['Due', formatInstant(run.due_at)],
            ['Waiting for event', run.wait_event ?? '—'],
            ['Ended', formatInstant(run.ended_at)],
            ['End reason', run.end_reason ? `${endReasonWords(run.end_reason)} (${run.end_reason})` : '—'],
            ['Error', run.error ?? '—'],
          ]}
        />
      </Card>
      <Card title="Timeline">
        <RunTimeline automationId={run.automation_id} entries={run.timeline} />
      </Card>
    </>
  );
}
