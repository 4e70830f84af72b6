/** Automations: the list, the creation and edit forms, one automation's flow with its actions, figures and runs, and a run's timeline. */
import { AutomationEditor } from './automations/automation-editor';
import { AutomationList } from './automations/automation-list';
import { AutomationView } from './automations/automation-view';
import { RunView } from './automations/run-view';
import type { ProjectPageProps } from './page';

/** `#/automations` (the list), `#/automations/new`, `#/automations/<id>` (its flow), `#/automations/<id>/edit` and `#/automations/<id>/runs/<runId>` (a run and its timeline). */
export function Automations(props: ProjectPageProps) {
  const [, id, sub, runId] = props.route.segments;
  if (id === undefined) return <AutomationList route={props.route} />;
  if (id === 'new') return <AutomationEditor session={props.session} />;
  if (sub === 'runs' && runId !== undefined) return <RunView key={runId} automationId={id} runId={runId} />;
  if (sub === 'edit') return <AutomationEditor key={`edit-${id}`} id={id} session={props.session} />;
  return <AutomationView key={id} id={id} route={props.route} />;
}
