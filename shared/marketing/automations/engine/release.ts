/**
 * `release`: an automation active again (or archived) queues the runs held while it was paused, a bounded page of
 * one shard a message, then the next page. Each held item is deleted after its step is queued (a
 * crash in between queues a step twice: its seq fences the second).
 */
import { decodeStartKey, encodeStartKey } from './start-keys';
import { getAutomation } from '../automation-gateway';
import { heldRuns, releaseHeldRuns } from '../automation-run-gateway';
import type { EngineMessage } from '../engine-messages';
import type { Engine } from './engine-context';
import { stepMessage } from './step-queue';

/** Held runs queued again per message. */
export const RELEASE_PAGE = 100;

/** Handles a `release` message. */
export async function releaseHeld(engine: Engine, message: { automation_id: string; shard: number; cursor?: string }): Promise<number> {
  const { db, queue } = engine.deps;
  const automation = await getAutomation(db, message.automation_id);
  // Paused again meanwhile: the runs stay held for the next activation. An archived automation's held
  // runs are queued too: their steps end them (`archived`).
  if (!automation || (automation.status !== 'active' && automation.status !== 'archived')) return 0;
  const page = await heldRuns(db, message.automation_id, message.shard, decodeStartKey(message.cursor), RELEASE_PAGE);
  if (page.held.length > 0) {
    await queue.sendBatch('automations', page.held.map((h) => stepMessage(h.runId, h.seq)));
    await releaseHeldRuns(db, message.automation_id, page.held.map((h) => h.runId));
  }
  if (page.next) {
    const next: EngineMessage = { kind: 'release', v: 1, automation_id: message.automation_id, shard: message.shard, cursor: encodeStartKey(page.next) };
    await queue.send('automations', next);
  }
  return page.held.length;
}
