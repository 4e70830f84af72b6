/**
 * `date_walk`: one day's walk of a date-triggered automation over one lead shard of its project, a
 * bounded page a message (then the next page). Each lead whose moment falls within the day gets an
 * `enter` message (key `date:<attribute>:<date>`, `start_at` its moment), up to 100 leads a message.
 */
import { readLeadShardPage } from '../../../audience/leads/lead-repository';
import { getProjectCached } from '../../../platform/projects/project-repository';
import { getAutomation, getAutomationVersion } from '../automation-gateway';
import type { Entrant, EngineMessage } from '../engine-messages';
import type { Engine } from './engine-context';
import { momentWithinDay } from './date-moments';
import { decodeStartKey, encodeStartKey } from './start-keys';
import { leadZone } from './wait-times';

/** Leads read per message. */
export const DATE_WALK_PAGE = 500;
/** Entrants per `enter` message (under SQS's 256 KB). */
const ENTRANTS_PER_MESSAGE = 100;

/** Handles a `date_walk` message; answers how many leads it sent to enter. */
export async function walkDates(engine: Engine, message: { automation_id: string; day: string; shard: number; cursor?: string }): Promise<number> {
  const { db, clock, queue } = engine.deps;
  const automation = await getAutomation(db, message.automation_id);
  if (!automation || automation.status !== 'active') return 0;
  const version = await getAutomationVersion(db, automation.id, automation.version, true);
  const trigger = version?.trigger;
  if (trigger?.type !== 'date') return 0;
  const project = await getProjectCached(db, clock, automation.project_id);
  const page = await readLeadShardPage(db, automation.project_id, message.shard, decodeStartKey(message.cursor), DATE_WALK_PAGE);
  const entrants: Entrant[] = [];
  for (const lead of page.leads) {
    const moment = momentWithinDay(trigger, lead.data[trigger.attribute], leadZone(lead.data, project?.timezone), message.day);
    if (!moment) continue;
    entrants.push({ lead_id: lead.id, email: lead.email, key: `date:${trigger.attribute}:${moment.date}`, properties: { [trigger.attribute]: lead.data[trigger.attribute] }, start_at: moment.at.toISOString() });
  }
  const messages: EngineMessage[] = [];
  for (let i = 0; i < entrants.length; i += ENTRANTS_PER_MESSAGE) {
    messages.push({ kind: 'enter', v: 1, project_id: automation.project_id, automation_id: automation.id, trigger: 'date', entrants: entrants.slice(i, i + ENTRANTS_PER_MESSAGE) });
  }
  if (page.next) messages.push({ kind: 'date_walk', v: 1, automation_id: automation.id, day: message.day, shard: message.shard, cursor: encodeStartKey(page.next) });
  if (messages.length > 0) await queue.sendBatch('automations', messages);
  return entrants.length;
}
