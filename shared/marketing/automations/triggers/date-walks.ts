/**
 * The daily producer of date triggers (the `automation-dates` schedule, hourly): for every active
 * date-triggered automation of the deployment it queues, once per UTC day, one `date_walk` message
 * per lead shard for the NEXT UTC day; the engine walks the leads and enters those whose date falls
 * in that day, each run starting at its moment (`start_at`). Walking a day ahead leaves every time
 * zone (UTC-12 to UTC+14) its whole day, however late in the hour the schedule fires.
 *
 * Once a day, idempotently: the walk mark (`walked_day`) is read with the entries (no extra read)
 * and set after the messages are queued, conditional on being older. A crash in between, or two
 * overlapping invocations, queue the day's walk twice: harmless, since the engine's entries are keyed
 * by the automation, the lead and the day. A missed hour is caught up by the next; an automation
 * activated (or edited) during a day is walked from the next day on.
 */
import type { Needs } from '../../../platform/core/dependencies';
import { leadShards } from '../../../platform/store/keys';
import { markDateWalked, queryDateTriggerEntries } from '../automation-gateway';
import type { EngineMessage } from '../engine-messages';

/** The UTC day (`YYYY-MM-DD`) after `now`'s: the day a walk run at `now` prepares. */
export const nextUtcDay = (now: Date): string => new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate() + 1)).toISOString().slice(0, 10);

/** What one run of the producer did. */
export interface DateWalkResult {
  day: string;
  /** Active date-triggered automations read. */
  automations: number;
  /** Automations whose walk of `day` this run queued. */
  walked: number;
}

/** Queues the next day's walk of every date-triggered automation not yet walked for it. */
export async function queueDateWalks(deps: Needs<'db' | 'clock' | 'queue'>): Promise<DateWalkResult> {
  const day = nextUtcDay(deps.clock.now());
  const entries = await queryDateTriggerEntries(deps.db);
  let walked = 0;
  for (const entry of entries) {
    if (entry.walked_day !== undefined && entry.walked_day >= day) continue;
    const messages: EngineMessage[] = leadShards().map((shard) => ({ kind: 'date_walk', v: 1, automation_id: entry.automation_id, day, shard }));
    await deps.queue.sendBatch('automations', messages);
    await markDateWalked(deps.db, entry.project_id, entry.automation_id, day);
    walked++;
  }
  return { day, automations: entries.length, walked };
}
