import { countLeads } from '../../audience/leads/lead-repository';
import { getSegment, segmentMemberCounts } from '../../audience/leads/segment-repository';
import { MAX_BATCH_RECIPIENTS } from '../../mail-pipeline/batches/batch-ids';
import type { Needs } from '../../platform/core/dependencies';
import { findSenderById } from '../../identities/domains/sender-service';
import { hasWebhookTargets } from '../../mail-pipeline/events/email-events';
import { logger } from '../../platform/core/logger';
import { getProject } from '../../platform/projects/project-repository';
import { RetryLaterError } from '../../platform/queue-worker/batch-handler';
import type { CursorPosition } from './audience-cursor';
import { RUNNING_CAMPAIGN_STATUSES, STATUS_KEEP_MS, TERMINAL_CAMPAIGN_STATUSES, type Campaign, type CampaignStatus } from './campaign';
import {
  getCampaign,
  getCursor,
  heldJobs,
  markPending,
  moveCampaign,
  pauseByGuard,
  readCampaignCounts,
  recordStep,
  releaseCampaignTemplate,
  releaseHeldJob,
  saveCursor,
  type EngineCursor,
} from './campaign-gateway';
import { enqueueCampaignMessage, type CampaignMessage } from './engine-messages';
import { allowance, campaignRate, RATE_WINDOW_SECONDS, returnTokens, takeTokens } from './pacing';
import { readPacedPage } from './provider-pacing';
import { campaignVerdict, pausedEvent } from './reputation-guard';
import { recipientOf } from './variables';
import { campaignContent, releaseWave } from './waves';

/**
 * Waves one step may release: a wave is a batch (at most MAX_BATCH_RECIPIENTS), and a campaign
 * alone may take a 3,000-a-second account's whole campaign share (2,100 a second, 21,000 a window).
 */
const MAX_WAVES_PER_STEP = 4;

/** SQS's longest delay; a longer wait is a one-time schedule (the Timers port). */
const MAX_QUEUE_DELAY_SECONDS = 900;

/**
 * How often an exhausted campaign checks whether the send pipeline has accounted for everything:
 * every pacing window, so a campaign completes within a window of its last mail's counters (a check
 * costs one campaign read, one counter BatchGet and one cursor write).
 */
const SETTLE_CHECK_SECONDS = RATE_WINDOW_SECONDS;

/**
 * Counters are added once per worker batch after the writes they count: a worker that crashes in
 * between loses a few. An exhausted campaign whose counts have not moved for this long is complete.
 */
const QUIET_COMPLETION_MS = 15 * 60_000;

/** Runs one message of the campaign engine (docs/campaigns.md). */
export async function runCampaignMessage(deps: Needs<'config' | 'db' | 'dns' | 'queue' | 'blobs' | 'clock' | 'events' | 'timers' | 'account'>, message: CampaignMessage): Promise<void> {
  switch (message.kind) {
    case 'init':
      return initCampaign(deps, message.campaign_id);
    case 'step':
      return runStep(deps, message.campaign_id, message.step);
    case 'resume':
      return resumeCampaign(deps, message.campaign_id);
  }
}

/**
 * `initializing` to `pending`: the frozen audience counted from counters in O(1) (a filter or a
 * follow-up takes the caller's `recipientCount` as its estimate until the cursor is exhausted), then
 * the first step at once or at `scheduled_for`.
 */
export async function initCampaign(deps: Needs<'db' | 'queue' | 'clock' | 'timers'>, campaignId: string): Promise<void> {
  const campaign = await getCampaign(deps.db, campaignId, true);
  if (!campaign) return;
  // An init that died between its move and queueing the first step, delivered again: queue it now
  // (a duplicate first step is fenced like any other).
  if (campaign.status === 'pending' && campaign.step === 0) return stepAt(deps, campaign, 0, campaign.scheduled_for ? new Date(campaign.scheduled_for) : deps.clock.now());
  if (campaign.status !== 'initializing') return;
  const total = await frozenAudienceSize(deps, campaign);
  const batches = campaign.batch_mode && campaign.batch_size ? Math.max(1, Math.ceil(total / campaign.batch_size)) : undefined;
  const now = deps.clock.now();
  const moved = await markPending(deps.db, campaignId, { total_recipients: total, ...(batches ? { total_batches: batches, current_batch: 1 } : {}) }, now.toISOString());
  if (!moved) return;
  const start = campaign.scheduled_for ? new Date(campaign.scheduled_for) : now;
  await stepAt(deps, campaign, campaign.step, start);
}

/** The frozen audience's size from counters (never by reading the audience). */
async function frozenAudienceSize(deps: Needs<'db'>, campaign: Campaign): Promise<number> {
  const audience = campaign.audience;
  switch (audience.kind) {
    case 'ids':
      return audience.count;
    case 'all':
      return countLeads(deps.db, campaign.project_id);
    case 'segment': {
      if (!audience.dynamic) return (await segmentMemberCounts(deps.db, campaign.project_id)).get(audience.segment_id) ?? 0;
      const segment = await getSegment(deps.db, campaign.project_id, audience.segment_id);
      return segment?.evaluation?.generation === audience.generation ? (segment?.evaluation?.member_count ?? 0) : (campaign.recipient_count_expected ?? 0);
    }
    case 'filter':
      return campaign.recipient_count_expected ?? 0;
    case 'follow_up': {
      const earlier = await getCampaign(deps.db, audience.campaign_id, true);
      return campaign.recipient_count_expected ?? earlier?.released ?? 0;
    }
  }
}

/** Puts step `step` on the queue at `at`: a delay up to 15 minutes, a one-time schedule beyond. */
async function stepAt(deps: Needs<'queue' | 'clock' | 'timers'>, campaign: Campaign, step: number, at: Date): Promise<void> {
  const message: CampaignMessage = { v: 1, kind: 'step', campaign_id: campaign.id, project_id: campaign.project_id, step };
  const seconds = Math.ceil((at.getTime() - deps.clock.now().getTime()) / 1000);
  if (seconds <= MAX_QUEUE_DELAY_SECONDS) return enqueueCampaignMessage(deps, message, Math.max(0, seconds));
  await deps.timers.fireAt(`campaign-${campaign.id}-step-${step}`, at, 'campaigns', message);
}

/**
 * Engine step `step`. A message for a step already taken does nothing (a duplicate or a stale
 * one); one for a step not reached yet is retried (its predecessor has not recorded itself yet).
 * The cursor's conditional save is the fence: of two runs of one step, one saves and goes on.
 */
export async function runStep(deps: Needs<'config' | 'db' | 'dns' | 'queue' | 'blobs' | 'clock' | 'events' | 'timers' | 'account'>, campaignId: string, step: number): Promise<void> {
  const campaign = await getCampaign(deps.db, campaignId, true);
  if (!campaign) return;
  // An ended campaign frees its template again: the release after the final move may have crashed,
  // and the marker would then keep the template "in use" for ever (idempotent: usually a no-op).
  if (TERMINAL_CAMPAIGN_STATUSES.includes(campaign.status)) return releaseCampaignTemplate(deps.db, campaign);
  if (campaign.step > step) return;
  if (campaign.step < step) throw new RetryLaterError(`Step ${step} of campaign ${campaignId} came before step ${campaign.step} was recorded`);
  // Cancelled, paused, finished: nothing is released; resume queues the step again.
  if (!['pending', ...RUNNING_CAMPAIGN_STATUSES].includes(campaign.status)) return;
  const now = deps.clock.now();
  if (campaign.status === 'pending' && campaign.scheduled_for && new Date(campaign.scheduled_for) > now) return stepAt(deps, campaign, step, new Date(campaign.scheduled_for));

  const counts = await readCampaignCounts(deps.db, campaignId);
  const verdict = await campaignVerdict(deps, campaign, counts);
  if (verdict) {
    const pause = { ...verdict, at: now.toISOString() };
    if (await pauseByGuard(deps.db, campaignId, pause)) {
      logger.warn('Campaign paused by the reputation guard', { campaignId, ...pause });
      const project = await getProject(deps.db, campaign.project_id);
      if (project && hasWebhookTargets(project)) await deps.events.publish(pausedEvent(campaign, pause));
    }
    return;
  }

  // Jobs held by a worker that saw the pause after the resume (its kept status) go out now.
  if (campaign.status !== 'pending') await requeueHeldJobs(deps, campaignId);

  const cursor = await getCursor(deps.db, campaignId);
  if (cursor.step !== step) {
    // The cursor is ahead: this step ran up to its save and crashed before recording; record it now.
    if (cursor.step === step + 1) return finishStep(deps, campaign, step, cursor, now, undefined);
    return;
  }
  if (cursor.exhausted) return settle(deps, campaign, step, cursor, counts, now);

  const startedAt = campaign.started_at ? new Date(campaign.started_at) : now;
  const own = allowance(campaign, cursor.released, startedAt, now);
  const rate = await campaignRate(deps);
  const capacity = Math.max(1, Math.floor(rate * RATE_WINDOW_SECONDS));
  // Throttled within the last window: half the budget until a clean window.
  const throttled = campaign.throttled_at !== undefined && now.getTime() - new Date(campaign.throttled_at).getTime() < RATE_WINDOW_SECONDS * 1000;
  const limit = Math.min(own.want, throttled ? Math.ceil(capacity / 2) : capacity, MAX_BATCH_RECIPIENTS * MAX_WAVES_PER_STEP);
  const granted = await takeTokens(deps.db, now, capacity, limit);

  let next: EngineCursor = { ...cursor };
  if (granted > 0) {
    const sender = await findSenderById(deps, campaign.project_id, campaign.sender_profile_id);
    if (!sender) {
      // The window's tokens go back first: another campaign stepping in this window may use them.
      await returnTokens(deps.db, now, granted);
      await moveCampaign(deps.db, campaignId, ['pending', ...RUNNING_CAMPAIGN_STATUSES], 'failed', { failure_reason: 'The sender profile no longer exists', updated_at: now.toISOString() });
      // A failed campaign uses its template no more, as a completed or cancelled one.
      await releaseCampaignTemplate(deps.db, campaign);
      return;
    }
    // Waves of up to MAX_BATCH_RECIPIENTS, numbered on from the cursor's; a replay finds each header written and follows it.
    let position: CursorPosition = cursor.position;
    let exhausted: boolean = cursor.exhausted;
    let number = cursor.wave;
    let released = 0;
    // A filter may match little of a page: the page reads are bounded too, to keep the step short.
    for (let pages = 0; released < granted && !exhausted && number - cursor.wave < MAX_WAVES_PER_STEP && pages < 2 * MAX_WAVES_PER_STEP; pages++) {
      // Paced per mailbox provider: recipients whose provider has no budget now wait in the position (provider-pacing.ts).
      const page = await readPacedPage(deps, campaign, position, Math.min(granted - released, MAX_BATCH_RECIPIENTS));
      ({ position, exhausted } = page);
      if (page.leads.length === 0) continue;
      const wave = await releaseWave(deps, {
        campaign,
        wave: number,
        content: campaignContent(campaign, sender),
        recipients: page.leads.map((lead) => recipientOf(lead, campaign.variable_config)),
        position,
        exhausted,
      });
      ({ position, exhausted } = wave);
      released += wave.batch.recipient_count;
      number += 1;
    }
    next = { ...next, wave: number, position, exhausted, released: cursor.released + released };
    // A step takes a whole window's budget up front; what its audience could not use goes back.
    await returnTokens(deps.db, now, granted - released);
  }
  if (!(await saveCursor(deps.db, campaignId, step, next))) return;
  return finishStep(deps, campaign, step, { ...next, step: step + 1 }, now, own.nextBatchAt, throttled, own.currentBatch);
}

/** After the cursor's save: the next step queued (at the pace's time), then the step recorded on the campaign. */
async function finishStep(deps: Needs<'db' | 'queue' | 'clock' | 'timers'>, campaign: Campaign, step: number, cursor: EngineCursor, now: Date, nextBatchAt: Date | undefined, throttled = false, currentBatch?: number): Promise<void> {
  const at = nextBatchAt && nextBatchAt > now ? nextBatchAt : new Date(now.getTime() + (cursor.exhausted ? SETTLE_CHECK_SECONDS : RATE_WINDOW_SECONDS) * 1000);
  await stepAt(deps, campaign, step + 1, at);
  const status: CampaignStatus = campaign.status === 'rate_limited' && throttled ? 'rate_limited' : 'processing';
  const total = cursor.exhausted ? { total_recipients: cursor.released, ...(campaign.batch_mode && campaign.batch_size ? { total_batches: Math.max(1, Math.ceil(cursor.released / campaign.batch_size)) } : {}) } : {};
  await recordStep(deps.db, campaign.id, step, status, {
    released: cursor.released,
    exhausted: cursor.exhausted,
    started_at: campaign.started_at ?? now.toISOString(),
    updated_at: now.toISOString(),
    ...(currentBatch !== undefined ? { current_batch: currentBatch } : {}),
    ...(nextBatchAt ? { next_batch_at: nextBatchAt.toISOString() } : {}),
    ...total,
  });
}

/**
 * The cursor is exhausted: the campaign completes once the send pipeline has accounted for every
 * released recipient (sent, failed, suppressed or cancelled), or once those counts stood still for
 * QUIET_COMPLETION_MS; until then the step checks again every SETTLE_CHECK_SECONDS.
 */
async function settle(deps: Needs<'db' | 'queue' | 'clock' | 'timers'>, campaign: Campaign, step: number, cursor: EngineCursor, counts: Awaited<ReturnType<typeof readCampaignCounts>>, now: Date): Promise<void> {
  const accounted = counts.sent + counts.failed + counts.suppressed + counts.cancelled;
  const settled = cursor.settled?.count === accounted ? cursor.settled : { count: accounted, since: now.toISOString() };
  const quiet = now.getTime() - new Date(settled.since).getTime() >= QUIET_COMPLETION_MS;
  if (accounted >= cursor.released || quiet) {
    const done = await moveCampaign(deps.db, campaign.id, ['pending', ...RUNNING_CAMPAIGN_STATUSES], 'completed', {
      completed_at: now.toISOString(),
      updated_at: now.toISOString(),
      emails_sent: counts.sent,
      emails_failed: counts.failed,
      step: step + 1,
    });
    if (done) await releaseCampaignTemplate(deps.db, campaign);
    return;
  }
  if (!(await saveCursor(deps.db, campaign.id, step, { ...cursor, settled }))) return;
  return finishStep(deps, campaign, step, { ...cursor, step: step + 1, settled }, now, undefined);
}

/** Jobs queued again per resume message or step; more are left for the next one. */
const HELD_PER_RESUME = 100;

/**
 * Held jobs go back to the send queue delayed past the workers' kept status: a worker that still
 * believes the campaign paused would hold them again.
 */
const REQUEUE_DELAY_SECONDS = Math.ceil(STATUS_KEEP_MS / 1000) + 1;

/**
 * Queues again up to HELD_PER_RESUME jobs held while the campaign was paused, each deleted after it
 * is queued (a crash in between queues one twice: its claims send nothing twice). True when more
 * may be left.
 */
async function requeueHeldJobs(deps: Needs<'db' | 'queue'>, campaignId: string): Promise<boolean> {
  const held = await heldJobs(deps.db, campaignId, HELD_PER_RESUME);
  if (held.length === 0) return false;
  await deps.queue.sendBatch('batch-send', held.map((h) => h.job), { delaySeconds: held.map(() => REQUEUE_DELAY_SECONDS) });
  for (const h of held) await releaseHeldJob(deps.db, campaignId, h.id);
  return held.length === HELD_PER_RESUME;
}

/**
 * `resume` (queued by the API once it moved the campaign out of `paused`): the jobs held while
 * paused go back to the send queue, then the step the pause stopped runs. Each step also requeues
 * held jobs, so a job held by a worker that saw the pause late is sent all the same.
 */
export async function resumeCampaign(deps: Needs<'db' | 'queue'>, campaignId: string): Promise<void> {
  const campaign = await getCampaign(deps.db, campaignId, true);
  if (!campaign || campaign.status === 'paused' || TERMINAL_CAMPAIGN_STATUSES.includes(campaign.status)) return;
  if (await requeueHeldJobs(deps, campaignId)) return enqueueCampaignMessage(deps, { v: 1, kind: 'resume', campaign_id: campaignId, project_id: campaign.project_id });
  await enqueueCampaignMessage(deps, { v: 1, kind: 'step', campaign_id: campaignId, project_id: campaign.project_id, step: campaign.step });
}
