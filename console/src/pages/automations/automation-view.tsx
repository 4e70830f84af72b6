/** One automation: its status and version, its trigger and rules in words, its steps as a flow, and activate, pause and archive. */
import { useCallback, useState } from 'preact/hooks';
import { ConfirmDialog } from '../../components/confirm-dialog';
import { Badge, Button, Card, Details, ErrorNote, Loading, Notice, PageHeader } from '../../components/ui';
import { api, ApiError, unwrap } from '../../lib/api';
import { formatInstant } from '../../lib/format';
import { href, navigate, type Route } from '../../lib/router';
import { useLoad, usePoll } from '../../lib/use-load';
import { entryFilterWords, exitWords, reentryWords, triggerWords } from './automation-words';
import { AutomationRuns } from './automation-runs';
import { RunCounts } from './automation-stats';
import { EnrollForm } from './enroll-form';
import { useKnownNames } from './known-names';
import { showStep, StepFlow } from './step-flow';

type Action = 'activate' | 'pause' | 'remove';

/** The step a 409 AUTOMATION_INVALID names (null: the trigger or an exit rule). */
function refusedStep(error: unknown): string | null | undefined {
  if (!(error instanceof ApiError) || error.code !== 'AUTOMATION_INVALID') return undefined;
  const step = (error.body as { step?: unknown } | undefined)?.step;
  return typeof step === 'string' ? step : null;
}

/** The view of automation `id`; `?step=<id>` brings that step of the flow into view. */
export function AutomationView(props: { id: string; route: Route }) {
  const { id } = props;
  const read = useLoad(() => unwrap(api.GET('/v1/automations/{id}', { params: { path: { id } } })).then((a) => a.data), [id]);
  const automation = read.data;
  const names = useKnownNames(automation?.steps);
  const [acting, setActing] = useState<Action>();
  const [actionError, setActionError] = useState<Error>();
  const [done, setDone] = useState<string>();
  const [confirmRemove, setConfirmRemove] = useState(false);
  // Bumped to read the figures and the runs again (an enrolment, a Refresh).
  const [refresh, setRefresh] = useState(0);
  const again = () => setRefresh((n) => n + 1);
  // After an enrolment the engine takes a moment: the figures and runs are read again every 2 s for 20 s.
  const [followUntil, setFollowUntil] = useState(0);
  const follow = useCallback(() => {
    if (Date.now() > followUntil) setFollowUntil(0);
    else setRefresh((n) => n + 1);
  }, [followUntil]);
  usePoll(followUntil > 0, 2000, follow);
  const enrolled = () => {
    again();
    setFollowUntil(Date.now() + 20_000);
  };
  const stats = useLoad(() => unwrap(api.GET('/v1/automations/{id}/stats', { params: { path: { id } } })).then((a) => a.data), [id, refresh, automation?.version]);
  const stepStats = stats.data ? new Map(stats.data.steps.map((s) => [s.id, s] as const)) : undefined;

  const act = async (action: Action) => {
    setActing(action);
    setActionError(undefined);
    setDone(undefined);
    const path = { params: { path: { id } } };
    try {
      if (action === 'remove') {
        const answer = await unwrap(api.DELETE('/v1/automations/{id}', path));
        if ('deleted' in answer) {
          navigate(href(['automations']));
          return;
        }
        setDone('The automation is archived: it takes no new entries, and its runs in flight end when they next wake.');
      } else if (action === 'activate') {
        const answer = await unwrap(api.POST('/v1/automations/{id}/activate', path));
        setDone(`The automation is active at version ${answer.data.version}: new entries start runs.`);
      } else {
        await unwrap(api.POST('/v1/automations/{id}/pause', path));
        setDone('The automation is paused: it takes no new entries, and runs that wake are held at the step they reached until it is active again.');
      }
      read.reload();
    } catch (e) {
      setActionError(e as Error);
    } finally {
      setActing(undefined);
      setConfirmRemove(false);
    }
  };

  if (read.error && !automation) {
    return (
      <>
        <PageHeader title="Automation" subtitle={<a href={href(['automations'])}>All automations</a>} />
        <ErrorNote error={read.error} />
      </>
    );
  }
  if (!automation) return <Loading />;
  const { status } = automation;
  const refused = refusedStep(actionError);
  const isDraft = status === 'draft';

  return (
    <>
      <PageHeader
        title={automation.name}
        subtitle={
          <>
            <a href={href(['automations'])}>All automations</a> · version {automation.version}
          </>
        }
        actions={
          <>
            {status === 'draft' || status === 'paused' ? (
              <Button variant="primary" busy={acting === 'activate'} onClick={() => void act('activate')}>
                Activate
              </Button>
            ) : null}
            {status === 'active' ? (
              <Button busy={acting === 'pause'} onClick={() => void act('pause')}>
                Pause
              </Button>
            ) : null}
            {status !== 'archived' ? (
              <a class="btn" href={href(['automations', id, 'edit'])}>
                Edit
              </a>
            ) : null}
            {status !== 'archived' ? (
              <Button variant="danger" onClick={() => setConfirmRemove(true)}>
                {isDraft ? 'Delete draft' : 'Archive'}
              </Button>
            ) : null}
          </>
        }
      />
      <ErrorNote error={read.error} title="The automation could not be read again" />
      {actionError ? (
        <div class="notice error" role="alert">
          <strong>Refused: </strong>
          {actionError.message}
          {actionError instanceof ApiError && actionError.code ? <code class="code-tag">{actionError.code}</code> : null}
          {refused ? (
            <>
              {' · '}
              <a href={href(['automations', id], { step: refused })} onClick={() => showStep(refused)}>
                Go to step <code>{refused}</code>
              </a>
            </>
          ) : null}
          {refused === null ? <span> (the trigger or an exit rule)</span> : null}
        </div>
      ) : null}
      {done ? <Notice kind="success">{done}</Notice> : null}

      <Card title="Status" class="compact-details">
        <div class="progress-line">
          <Badge value={status} />
          <span>Version {automation.version}</span>
        </div>
        <Details
          items={(
            [
              ['Created', automation.created_at],
              ['Updated', automation.updated_at],
              ['Last activated', automation.activated_at],
              ['Last paused', automation.paused_at],
              ['Archived', automation.archived_at],
            ] as const
          )
            .filter(([, at]) => at !== null)
            .map(([term, at]) => [term, formatInstant(at)] as const)}
        />
      </Card>

      {isDraft ? null : (
        <Card
          title="Runs by state"
          actions={
            <Button busy={stats.loading && Boolean(stats.data)} onClick={again}>
              Refresh
            </Button>
          }
        >
          <ErrorNote error={stats.error} title="The figures could not be read" />
          {stats.data ? <RunCounts runs={stats.data.runs} /> : stats.error ? null : <Loading label="Loading the figures…" />}
          <p class="hint">
            From counters the engine adds to as it goes: the latest steps may show a moment later. Each step's figures are in its block below; rates are of the mails
            delivered, and opened counts people, not mail scanners.
          </p>
        </Card>
      )}

      <Card title="Trigger and rules">
        <ul class="rules">
          <li data-testid="trigger-words">
            <span class="rule-label">Starts:</span> {triggerWords(automation.trigger)}
          </li>
          <li>
            <span class="rule-label">Who:</span> {entryFilterWords(automation.entry)}
          </li>
          <li data-testid="reentry-words">{reentryWords(automation.entry)}</li>
          {automation.exit.length ? (
            automation.exit.map((rule, i) => (
              <li key={i}>
                <span class="rule-label">Exit:</span> {exitWords(rule)}
              </li>
            ))
          ) : (
            <li>
              <span class="rule-label">Exit:</span> no exit rule (runs end at their last step)
            </li>
          )}
        </ul>
      </Card>

      <Card title="Steps">
        <StepFlow
          automationId={id}
          steps={automation.steps}
          names={names}
          focus={props.route.query.get('step') ?? undefined}
          refused={refused ? { step: refused, message: actionError!.message } : undefined}
          stats={stepStats}
        />
      </Card>

      {status === 'active' ? <EnrollForm automationId={id} onEnrolled={enrolled} /> : null}
      {isDraft ? null : <AutomationRuns automationId={id} refresh={refresh} onRefresh={again} />}

      <ConfirmDialog
        open={confirmRemove}
        title={isDraft ? 'Delete this draft?' : 'Archive this automation?'}
        confirmLabel={isDraft ? 'Delete draft' : 'Archive'}
        cancelLabel="Keep it"
        busy={acting === 'remove'}
        onConfirm={() => void act('remove')}
        onCancel={() => setConfirmRemove(false)}
      >
        {isDraft ? (
          <p>A draft never ran: it is deleted outright.</p>
        ) : (
          <p>Archiving is final: the automation takes no new entries, its runs in flight end (exited) when they next wake, and it can no longer be edited or activated.</p>
        )}
      </ConfirmDialog>
    </>
  );
}
