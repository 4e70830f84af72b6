import type { Needs } from '../../platform/core/dependencies';
import type { ProjectCaller } from '../../platform/auth/authenticate';
import { AppError, conflict } from '../../platform/core/errors';
import type { Campaign, CampaignStatus } from './campaign';
import { getCampaign, moveCampaignStatus, releaseCampaignTemplate } from './campaign-gateway';
import { enqueueCampaignMessage } from './engine-messages';

/** What this module's use cases touch. */
type Deps = Needs<'db' | 'clock' | 'queue'>;

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const NON_TERMINAL: readonly CampaignStatus[] = ['initializing', 'pending', 'processing', 'rate_limited', 'paused'];
/** States a caller may pause: waiting to start, or sending. */
export const PAUSABLE_STATUSES: readonly CampaignStatus[] = ['pending', 'processing', 'rate_limited'];
/** How many times a state move is tried again after losing a race to the engine (which moves running campaigns). */
const MOVE_ATTEMPTS = 3;

/** 404 `NOT_FOUND`: a malformed id, an unknown one and another project's are the same answer. */
function campaignNotFound(): AppError {
  return new AppError(404, 'NOT_FOUND', 'NOT_FOUND', { message: 'Campaign not found' });
}

/** The campaign of the caller's project, or 404. */
export async function requireCampaign(deps: Deps, caller: ProjectCaller, campaignId: string | undefined, consistent = false): Promise<Campaign> {
  if (!campaignId || !UUID.test(campaignId)) throw campaignNotFound();
  const campaign = await getCampaign(deps.db, campaignId.toLowerCase(), consistent);
  if (!campaign || campaign.project_id !== caller.project.id) throw campaignNotFound();
  return campaign;
}

/**
 * Tries a state move from the campaign's current state until it is written or `allowed` refuses the
 * state found: the engine may move the campaign (pending to processing, rate_limited and back) between
 * the read and the write.
 */
async function moveFromCurrent(
  deps: Deps,
  caller: ProjectCaller,
  campaignId: string | undefined,
  allowed: readonly CampaignStatus[],
  refuse: (campaign: Campaign) => AppError,
  move: (campaign: Campaign) => { to: CampaignStatus; set?: Record<string, unknown>; remove?: readonly string[] },
): Promise<{ before: Campaign; after: Campaign }> {
  for (let attempt = 1; ; attempt++) {
    const before = await requireCampaign(deps, caller, campaignId, true);
    if (!allowed.includes(before.status)) throw refuse(before);
    const after = await moveCampaignStatus(deps.db, before.id, { from: [before.status], now: deps.clock.now().toISOString(), ...move(before) });
    if (after) return { before, after };
    if (attempt >= MOVE_ATTEMPTS) throw conflict('The campaign changed while it was being updated; retry', 'CONFLICT');
  }
}

/**
 * `POST /v1/campaigns/:id/cancel`: a soft cutoff from any non-terminal state. The engine releases
 * nothing more and the send worker cancels the mails of a cancelled campaign it has not sent yet;
 * the template is free again.
 */
export async function cancelCampaign(deps: Deps, caller: ProjectCaller, campaignId: string | undefined) {
  const { after } = await moveFromCurrent(
    deps,
    caller,
    campaignId,
    NON_TERMINAL,
    (c) => conflict('NOT_CANCELLABLE', 'NOT_CANCELLABLE', { status: c.status, message: `A ${c.status} campaign cannot be cancelled` }),
    () => ({ to: 'cancelled' }),
  ).catch(async (error: unknown) => {
    // A cancel that crashed between its two writes left the template marked as used: the retry,
    // answered 409, frees it (idempotent).
    if (error instanceof AppError && error.code === 'NOT_CANCELLABLE' && error.extra.status === 'cancelled') {
      const campaign = await requireCampaign(deps, caller, campaignId);
      await releaseCampaignTemplate(deps.db, campaign);
    }
    throw error;
  });
  await releaseCampaignTemplate(deps.db, after);
  return { id: after.id, status: 'cancelled' as const };
}

/** `POST /v1/campaigns/:id/pause`: from pending, processing or rate_limited; `pause: {reason: 'manual', at}`. */
export async function pauseCampaign(deps: Deps, caller: ProjectCaller, campaignId: string | undefined) {
  const { after } = await moveFromCurrent(
    deps,
    caller,
    campaignId,
    PAUSABLE_STATUSES,
    (c) => conflict('NOT_PAUSABLE', 'NOT_PAUSABLE', { status: c.status, message: `A ${c.status} campaign cannot be paused; only a pending, processing or rate_limited one` }),
    () => ({ to: 'paused', set: { pause: { reason: 'manual', at: deps.clock.now().toISOString() } } }),
  );
  return { id: after.id, status: after.status, pause: after.pause ?? null };
}

/**
 * `POST /v1/campaigns/:id/resume`: from paused (by the caller or by the reputation guard) to
 * processing when it had started, pending otherwise; clears `pause` and queues the engine's
 * `resume` (which queues the held jobs again and steps on from the cursor).
 */
export async function resumeCampaign(deps: Deps, caller: ProjectCaller, campaignId: string | undefined) {
  const { before, after } = await moveFromCurrent(
    deps,
    caller,
    campaignId,
    ['paused'],
    (c) => conflict('NOT_RESUMABLE', 'NOT_RESUMABLE', { status: c.status, message: `A ${c.status} campaign cannot be resumed; only a paused one` }),
    (c) => ({ to: c.started_at ? 'processing' : 'pending', remove: ['pause'] }),
  );
  try {
    await enqueueCampaignMessage(deps, { v: 1, kind: 'resume', campaign_id: after.id, project_id: after.project_id });
  } catch (error) {
    // Without its message a resumed campaign would say it runs and never step: back to paused, so
    // the caller's retry of resume can succeed.
    await moveCampaignStatus(deps.db, after.id, { from: [after.status], to: 'paused', now: deps.clock.now().toISOString(), ...(before.pause ? { set: { pause: before.pause } } : {}) });
    throw new AppError(500, 'Failed to resume campaign', 'RESUME_FAILED', {}, { cause: error });
  }
  return { id: after.id, status: after.status };
}
