import { createHash } from 'node:crypto';
import type { Needs } from '../../platform/core/dependencies';
import type { ServiceEvent } from '../../platform/core/events';
import type { Project } from '../../platform/projects/project';
import { getProject } from '../../platform/projects/project-repository';
import { webhookTargets, type WebhookTarget } from '../../platform/projects/webhook-routing';
import { maxAttemptsFor, type WebhookJob } from './webhook-job';

/**
 * A delivery's id (its `webhook-id` header), drawn from the event and its target: the events queue
 * delivers at least once, and a message it hands the fan-out again makes the same delivery, which a
 * receiver recognises by its `webhook-id` as Standard Webhooks intends. Two events differ in their
 * timestamp and object, so no two deliveries share an id.
 */
export function deliveryIdOf(event: ServiceEvent, url: string, slot: string): string {
  // An email event repeated by a redelivered job (deliver-send.ts, republishSent) carries a new
  // dispatch time but the same event_timestamp: part 6's identity of an event. Leaving the dispatch
  // time out gives the repeat the same webhook-id, which receivers drop. Events without an
  // event_timestamp keep their dispatch time in the identity: two of them are two events.
  const identity = typeof event.data.event_timestamp === 'string' ? { ...event, timestamp: undefined } : event;
  const hex = createHash('sha256').update(`${JSON.stringify(identity)}\n${url}\n${slot}`, 'utf8').digest('hex');
  return `msg_${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20, 32)}`;
}

/**
 * Turns events into deliveries: one webhooks-queue message per (event, URL), sent ten to a request.
 * Reading the project here, not when the event was published, means a URL changed in between is
 * the one used.
 */
export async function fanOut(deps: Needs<'db' | 'queue'>, events: ServiceEvent[], projects = new Map<string, Promise<Project | undefined>>()): Promise<number> {
  const jobs: WebhookJob[] = [];
  for (const event of events) {
    if (!projects.has(event.project_id)) projects.set(event.project_id, getProject(deps.db, event.project_id));
    const project = await projects.get(event.project_id);
    if (!project) continue;
    for (const target of webhookTargets(project, event)) {
      jobs.push({ v: 1, delivery_id: deliveryIdOf(event, target.url, target.slot), project_id: project.id, url: target.url, slot: target.slot, event, max_attempts: maxAttemptsFor(event) });
    }
  }
  if (jobs.length > 0) await deps.queue.sendBatch('webhooks', jobs);
  return jobs.length;
}

/**
 * One of a project's webhooks by id, as an automation's webhook step names it: `live` (its
 * `webhook_url`), `dev` (its `webhook_url_dev`), or the name of one of its environments (that
 * environment's URL, live slot). Undefined when that webhook is not set.
 */
export function webhookTargetById(project: Project, webhookId: string): WebhookTarget | undefined {
  if (webhookId === 'live') return project.webhook_url ? { url: project.webhook_url, slot: 'live' } : undefined;
  if (webhookId === 'dev') return project.webhook_url_dev ? { url: project.webhook_url_dev, slot: 'dev' } : undefined;
  const url = project.inbound_webhook_environments?.[webhookId];
  return url ? { url, slot: 'live' } : undefined;
}

/**
 * Queues one event to one webhook (an automation's webhook step), delivered, signed, retried and
 * logged like every other delivery. `deliveryId` is the caller's stable id: a repeat of the same
 * step is the same delivery, which receivers drop by its `webhook-id`.
 */
export async function queueWebhookDelivery(deps: Needs<'queue'>, project: Project, target: WebhookTarget, event: ServiceEvent, deliveryId: string): Promise<void> {
  const job: WebhookJob = { v: 1, delivery_id: deliveryId, project_id: project.id, url: target.url, slot: target.slot, event, max_attempts: maxAttemptsFor(event) };
  await deps.queue.send('webhooks', job);
}
