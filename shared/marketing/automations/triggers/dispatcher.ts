/**
 * The automation dispatcher: the LeadSignals port as automations implement it (the composition binds
 * it). It reads the project's active trigger table through a cache (TRIGGER_TABLE_CACHE_SECONDS),
 * routes the signals (route-signals.ts) and queues the messages on `automations`, ten to an SQS
 * request. A project with no active automation, or signals no automation listens for, cost the
 * cached read only: no SQS request at all.
 */
import type { Needs } from '../../../platform/core/dependencies';
import type { LeadSignal, LeadSignals } from '../../../platform/core/lead-signals';
import { queryTriggerEntriesCached } from '../automation-gateway';
import { listensToSegment, routeSignals } from './route-signals';

/** The dispatcher over `deps` (read at each call, so services a test replaced are used). */
export function automationDispatcher(deps: Needs<'db' | 'clock' | 'queue'>): LeadSignals {
  return {
    async emit(projectId: string, signals: readonly LeadSignal[]): Promise<void> {
      if (signals.length === 0) return;
      const entries = await queryTriggerEntriesCached(deps.db, deps.clock, projectId);
      if (entries.length === 0) return;
      const messages = routeSignals(projectId, entries, signals);
      if (messages.length > 0) await deps.queue.sendBatch('automations', messages);
    },
    async listensToSegment(projectId: string, segmentId: string): Promise<boolean> {
      return listensToSegment(await queryTriggerEntriesCached(deps.db, deps.clock, projectId), segmentId);
    },
  };
}
