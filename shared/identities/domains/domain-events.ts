import type { EventPublisher } from '../../platform/core/events';
import type { PendingEvent } from './domain';

/** Hands a transition's decided events to the events queue, in order. */
export async function publishAll(events: EventPublisher, projectId: string, pending: PendingEvent[]): Promise<void> {
  for (const e of pending) await events.publish({ event: e.event, timestamp: e.timestamp, project_id: projectId, data: e.data });
}
