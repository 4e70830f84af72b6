/** Automations: the list, the creation and edit forms, and one automation's flow with its actions. */
import { AutomationEditor } from './automations/automation-editor';
import { AutomationList } from './automations/automation-list';
import { AutomationView } from './automations/automation-view';
import type { ProjectPageProps } from './page';

/** `#/automations` (the list), `#/automations/new`, `#/automations/<id>` (its flow) and `#/automations/<id>/edit`. */
export function Automations(props: ProjectPageProps) {
  const [, id, sub] = props.route.segments;
  if (id === undefined) return <AutomationList route={props.route} />;
  if (id === 'new') return <AutomationEditor session={props.session} />;
  if (sub === 'edit') return <AutomationEditor key={`edit-${id}`} id={id} session={props.session} />;
  return <AutomationView key={id} id={id} route={props.route} />;
}
