import type { Automation } from './automation';
import type { AutomationDefinition } from './definition';

const timesOf = (a: Automation) => ({
  created_at: a.created_at,
  updated_at: a.updated_at,
  activated_at: a.activated_at ?? null,
  paused_at: a.paused_at ?? null,
  archived_at: a.archived_at ?? null,
});

/** An automation as the API shows it (automation-answers.ts `Automation`): its current version's definition. */
export function presentAutomation(a: Automation, definition: AutomationDefinition) {
  return {
    id: a.id,
    name: a.name,
    status: a.status,
    version: a.version,
    trigger: definition.trigger,
    entry: definition.entry,
    exit: definition.exit,
    steps: definition.steps,
    ...timesOf(a),
  };
}

/** An automation in a list (`AutomationSummary`). */
export function presentAutomationSummary(a: Automation) {
  return { id: a.id, name: a.name, status: a.status, version: a.version, trigger_type: a.trigger_type, ...timesOf(a) };
}
