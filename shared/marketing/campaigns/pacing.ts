import type { Needs } from '../../platform/core/dependencies';
import type { Db } from '../../platform/store/client';
import type { Campaign } from './campaign';
import { giveBackToWindow, takeFromWindow, takenInWindow } from './campaign-gateway';

/**
 * Pacing (docs/campaigns.md): every campaign of the deployment takes its mail from one budget per
 * window of RATE_WINDOW_SECONDS, the account's send rate less the transactional share, kept in
 * `RATE#campaigns` items (one conditional ADD per step).
 */

/** The budget's window: a step releases at most a window's mail, and the next step comes a window later. */
export const RATE_WINDOW_SECONDS = 10;

/** The mails a second all campaigns may send together: the account's (or CAMPAIGN_SEND_RATE) less the transactional share. */
export async function campaignRate(deps: Needs<'config' | 'account'>): Promise<number> {
  const total = deps.config.CAMPAIGN_SEND_RATE ?? (await deps.account.maxSendRate());
  return total * (1 - deps.config.TRANSACTIONAL_RATE_SHARE);
}

/** The window that holds `now`, as its first epoch second. */
export const windowOf = (now: Date): number => Math.floor(now.getTime() / 1000 / RATE_WINDOW_SECONDS) * RATE_WINDOW_SECONDS;

/**
 * Takes up to `want` mails from the current window's budget of `capacity`; the number granted (0
 * when the window is spent by other campaigns). One conditional ADD; when it does not fit whole,
 * one read and one more try for what is left.
 */
export async function takeTokens(db: Db, now: Date, capacity: number, want: number): Promise<number> {
  if (want <= 0) return 0;
  const window = windowOf(now);
  const first = Math.min(want, capacity);
  if (await takeFromWindow(db, window, first, capacity)) return first;
  const left = Math.floor(capacity - (await takenInWindow(db, window)));
  if (left <= 0) return 0;
  return (await takeFromWindow(db, window, Math.min(left, want), capacity)) ? Math.min(left, want) : 0;
}

/**
 * Gives back tokens a step took but did not use (its audience ran out, or a filter matched little),
 * so that another campaign stepping in the same window can have them.
 */
export async function returnTokens(db: Db, now: Date, unused: number): Promise<void> {
  if (unused <= 0) return;
  await giveBackToWindow(db, windowOf(now), unused);
}

/** What a step may release, before the shared budget: the campaign's own limits at `now`. */
export interface Allowance {
  /** Recipients the campaign may release now (Infinity when only the shared rate limits it). */
  want: number;
  /** When nothing may go now: the instant of the next batch of `batchMode`. */
  nextBatchAt?: Date;
  /** The batch being sent (`batchMode`). */
  currentBatch?: number;
}

/**
 * The campaign's own limits: `sendOverHours` releases by each instant its even share of the
 * audience (so a late step catches up, a replayed one does not release twice); `batchMode` releases
 * `batchSize` per batch, batch k (from 1) starting `(k-1) * batchIntervalHours` after the start.
 */
export function allowance(campaign: Campaign, released: number, startedAt: Date, now: Date): Allowance {
  let want = Number.POSITIVE_INFINITY;
  if (campaign.send_over_hours && campaign.send_over_hours > 0) {
    const span = campaign.send_over_hours * 3600_000;
    const due = Math.ceil(campaign.total_recipients * Math.min(1, (now.getTime() + RATE_WINDOW_SECONDS * 1000 - startedAt.getTime()) / span));
    want = Math.max(0, due - released);
  }
  if (campaign.batch_mode && campaign.batch_size && campaign.batch_size > 0) {
    const interval = campaign.batch_interval_hours * 3600_000;
    // The batch whose time has come: the first, then one more per interval elapsed.
    const byTime = interval > 0 ? Math.floor((now.getTime() - startedAt.getTime()) / interval) + 1 : Number.MAX_SAFE_INTEGER;
    const byCount = Math.floor(released / campaign.batch_size) + 1;
    const currentBatch = Math.min(byTime, byCount);
    const room = currentBatch * campaign.batch_size - released;
    if (room <= 0 || byTime < byCount) {
      return { want: 0, currentBatch: byCount, nextBatchAt: new Date(startedAt.getTime() + (byCount - 1) * interval) };
    }
    want = Math.min(want, room);
    return { want, currentBatch };
  }
  return { want };
}
