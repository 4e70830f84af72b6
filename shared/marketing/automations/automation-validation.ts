import { getSegment } from '../../audience/leads/segment-repository';
import type { Segment } from '../../audience/leads/segment';
import { findSenderById, senderPermission } from '../../identities/domains/sender-lookup';
import { getTemplate } from '../../mail-pipeline/templates/template-repository';
import type { Needs } from '../../platform/core/dependencies';
import { conflict, type AppError } from '../../platform/core/errors';
import type { Project } from '../../platform/projects/project';
import { graphProblem, type GraphProblem } from './automation-graph';
import type { AutomationDefinition } from './definition';
import { webhookUrlOf } from './webhook-target';

/** 409 `AUTOMATION_INVALID` naming the step (null: the trigger or an exit rule). */
export const automationInvalid = (problem: GraphProblem): AppError => conflict(problem.message, 'AUTOMATION_INVALID', { code: 'AUTOMATION_INVALID', step: problem.step });

/**
 * The activation checks (docs/automations.md): the graph's shape first (automation-graph.ts), then
 * what the definition names in the project: the trigger's and exit rules' segments, and per step in
 * order its template and sender profile (which must be able to send), its webhook, its segments.
 * Throws 409 AUTOMATION_INVALID with the first problem; nothing is written.
 */
export async function checkActivation(deps: Needs<'db'>, project: Project, definition: AutomationDefinition): Promise<void> {
  const problem = graphProblem(definition.steps) ?? (await resourceProblem(deps, project, definition));
  if (problem) throw automationInvalid(problem);
}

/** The first thing the definition names that the project lacks, or undefined. */
async function resourceProblem(deps: Needs<'db'>, project: Project, definition: AutomationDefinition): Promise<GraphProblem | undefined> {
  const reads = new Reads(deps, project.id);
  const { trigger } = definition;
  if (trigger.type === 'segment_entered' && !(await reads.segment(trigger.segment_id))) return { step: null, message: `Trigger: segment ${trigger.segment_id} does not exist` };
  for (const [i, rule] of definition.exit.entries()) {
    if (rule.type === 'segment_left' && !(await reads.segment(rule.segment_id))) return { step: null, message: `Exit rule ${i + 1}: segment ${rule.segment_id} does not exist` };
  }
  for (const step of definition.steps) {
    const named = (message: string): GraphProblem => ({ step: step.id, message: `Step "${step.id}": ${message}` });
    if (step.type === 'send_email') {
      if (!(await reads.template(step.template_id))) return named(`template ${step.template_id} does not exist`);
      const sender = await reads.sender(step.sender_profile_id);
      if (sender === 'missing') return named(`sender profile ${step.sender_profile_id} does not exist`);
      if (sender === 'cannot_send') return named(`sender profile ${step.sender_profile_id} cannot send yet: its domain is not verified and its address is not confirmed`);
    } else if (step.type === 'webhook') {
      if (!webhookUrlOf(project, step.webhook_id)) return named(`webhook "${step.webhook_id}" does not exist: the project has no URL for it`);
    } else if (step.type === 'update_lead') {
      for (const id of [...(step.add_segment_ids ?? []), ...(step.remove_segment_ids ?? [])]) {
        const segment = await reads.segment(id);
        if (!segment) return named(`segment ${id} does not exist`);
        if (segment.type !== 'static') return named(`segment ${id} is dynamic: its members follow its filter, only a static segment's are added or removed`);
      }
    }
  }
}

/** The project's resources a definition names, each read once however many steps name it. */
class Reads {
  private readonly cache = new Map<string, Promise<unknown>>();
  constructor(
    private readonly deps: Needs<'db'>,
    private readonly projectId: string,
  ) {}

  private once<T>(key: string, read: () => Promise<T>): Promise<T> {
    if (!this.cache.has(key)) this.cache.set(key, read());
    return this.cache.get(key) as Promise<T>;
  }

  segment(id: string): Promise<Segment | undefined> {
    return this.once(`segment:${id}`, () => getSegment(this.deps.db, this.projectId, id));
  }

  template(id: string): Promise<boolean> {
    return this.once(`template:${id}`, async () => (await getTemplate(this.deps.db, this.projectId, id)) !== undefined);
  }

  /** Whether the sender profile is the project's and may send now (a verified domain, or a confirmed address), as campaigns require. */
  sender(id: string): Promise<'ok' | 'missing' | 'cannot_send'> {
    return this.once(`sender:${id}`, async () => {
      const sender = await findSenderById(this.deps, this.projectId, id);
      if (!sender) return 'missing';
      return (await senderPermission(this.deps, this.projectId, sender.from_email)) === 'none' ? 'cannot_send' : 'ok';
    });
  }
}
