import { isWaitStep, type Step } from './definition';

/**
 * The pure checks of an automation's graph, run at activation (automation-validation.ts adds the
 * checks of what the steps name in the project). The first problem found, in this order: a
 * duplicate id, a reference to a step that does not exist, an opened/clicked condition that names no
 * earlier send_email, a step no path reaches, a cycle that passes no wait step (it would spin without
 * end). Each names its step.
 */

/** A graph problem: the step it concerns (null: the definition as a whole) and a message naming it. */
export interface GraphProblem {
  step: string | null;
  message: string;
}

/** The fields of a step that name the next step, with their names for messages. */
function referencesOf(step: Step): { field: string; to: string }[] {
  const fields: [string, string | null | undefined][] =
    step.type === 'exit'
      ? []
      : step.type === 'condition'
        ? [
            ['yes', step.yes],
            ['no', step.no],
          ]
        : step.type === 'wait_for_event'
          ? [
              ['on_event', step.on_event],
              ['on_timeout', step.on_timeout],
            ]
          : [['next', step.next]];
  return fields.filter((f): f is [string, string] => typeof f[1] === 'string').map(([field, to]) => ({ field, to }));
}

const problem = (step: string, message: string): GraphProblem => ({ step, message: `Step "${step}": ${message}` });

/** The first problem of a graph's shape, or undefined when it can run. */
export function graphProblem(steps: readonly Step[]): GraphProblem | undefined {
  return duplicateId(steps) ?? unknownReference(steps) ?? engagementReference(steps) ?? unreachableStep(steps) ?? waitlessCycle(steps);
}

function duplicateId(steps: readonly Step[]): GraphProblem | undefined {
  const seen = new Set<string>();
  for (const step of steps) {
    if (seen.has(step.id)) return problem(step.id, 'its id is used by more than one step');
    seen.add(step.id);
  }
}

function unknownReference(steps: readonly Step[]): GraphProblem | undefined {
  const ids = new Set(steps.map((s) => s.id));
  for (const step of steps) {
    for (const ref of referencesOf(step)) if (!ids.has(ref.to)) return problem(step.id, `${ref.field} names step "${ref.to}", which does not exist`);
  }
}

/** Steps reachable from `from` (itself excluded unless a path comes back to it). */
function reachableFrom(byId: ReadonlyMap<string, Step>, from: Step): Set<string> {
  const seen = new Set<string>();
  const queue = referencesOf(from).map((r) => r.to);
  while (queue.length > 0) {
    const id = queue.shift() as string;
    if (seen.has(id)) continue;
    seen.add(id);
    const step = byId.get(id);
    if (step) queue.push(...referencesOf(step).map((r) => r.to));
  }
  return seen;
}

/** An opened/clicked condition must name a send_email step some path passes before the condition. */
function engagementReference(steps: readonly Step[]): GraphProblem | undefined {
  const byId = new Map(steps.map((s) => [s.id, s]));
  for (const step of steps) {
    if (step.type !== 'condition' || 'filter' in step.condition) continue;
    const [kind, target] = 'opened' in step.condition ? ['opened', step.condition.opened] : ['clicked', step.condition.clicked];
    const sent = byId.get(target);
    if (!sent) return problem(step.id, `condition.${kind} names step "${target}", which does not exist`);
    if (sent.type !== 'send_email') return problem(step.id, `condition.${kind} names step "${target}", which is not a send_email step`);
    if (!reachableFrom(byId, sent).has(step.id)) return problem(step.id, `condition.${kind} names step "${target}", which no path passes before this step`);
  }
}

function unreachableStep(steps: readonly Step[]): GraphProblem | undefined {
  if (steps.length === 0) return undefined;
  const byId = new Map(steps.map((s) => [s.id, s]));
  const reached = reachableFrom(byId, steps[0]);
  reached.add(steps[0].id);
  const lost = steps.find((s) => !reached.has(s.id));
  return lost ? problem(lost.id, `no path from the first step ("${steps[0].id}") reaches it`) : undefined;
}

/** A cycle among steps that are not waits (one through a wait step is a loop with a pause: allowed). */
function waitlessCycle(steps: readonly Step[]): GraphProblem | undefined {
  const byId = new Map(steps.filter((s) => !isWaitStep(s)).map((s) => [s.id, s]));
  const state = new Map<string, 'open' | 'done'>();
  const path: string[] = [];
  const visit = (id: string): string[] | undefined => {
    state.set(id, 'open');
    path.push(id);
    for (const ref of referencesOf(byId.get(id) as Step)) {
      if (!byId.has(ref.to)) continue;
      if (state.get(ref.to) === 'open') return path.slice(path.indexOf(ref.to));
      if (!state.has(ref.to)) {
        const cycle = visit(ref.to);
        if (cycle) return cycle;
      }
    }
    path.pop();
    state.set(id, 'done');
    return undefined;
  };
  for (const step of steps) {
    if (!byId.has(step.id) || state.has(step.id)) continue;
    const cycle = visit(step.id);
    if (cycle) return problem(cycle[0], `the cycle ${[...cycle, cycle[0]].map((id) => `"${id}"`).join(' -> ')} passes no wait step`);
  }
}
