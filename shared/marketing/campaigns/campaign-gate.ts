import type { BatchSendJob } from '../../mail-pipeline/batches/batch-jobs';
import type { Needs } from '../../platform/core/dependencies';
import type { WaveControl } from '../../mail-pipeline/batches/deliver-batch-job';
import { ttlAfterDays } from '../../platform/store/client';
import { STATUS_KEEP_MS, type CampaignStatus } from './campaign';
import type { CampaignCounterBatch } from './campaign-counters';
import { getCampaign, holdJob, markRateLimited } from './campaign-gateway';


/** Campaign statuses a warm worker keeps (module scope: it outlives one invocation). */
const kept = new Map<string, { status: CampaignStatus | undefined; until: number }>();

/**
 * The campaign's say over a wave's send jobs, for the send workers: the campaign's status read once
 * per job (kept a few seconds per warm instance), jobs of a paused campaign held, outcomes counted
 * in the invocation's CampaignCounterBatch, SES throttling turned into `rate_limited`.
 */
export function campaignGate(deps: Needs<'db' | 'clock' | 'config'>, counters: CampaignCounterBatch): WaveControl {
  return {
    async decide(_projectId, campaignId) {
      const now = Date.now();
      let entry = kept.get(campaignId);
      if (!entry || entry.until <= now) {
        entry = { status: (await getCampaign(deps.db, campaignId, true))?.status, until: now + STATUS_KEEP_MS };
        kept.set(campaignId, entry);
      }
      if (entry.status === 'cancelled' || entry.status === undefined) return 'cancel';
      if (entry.status === 'paused') return 'hold';
      return 'send';
    },
    async hold(job: BatchSendJob) {
      // The job's id: its wave and first recipient, so a redelivered job is held once.
      await holdJob(deps.db, job.campaign_id!, `${job.batch_id}:${job.recipients[0].index}`, job, ttlAfterDays(deps.clock.now(), deps.config.ACTIVITY_RETENTION_DAYS));
    },
    count(campaignId, field, n = 1) {
      counters.add(campaignId, field, n);
    },
    async throttled(campaignId) {
      await markRateLimited(deps.db, campaignId, deps.clock.now().toISOString());
    },
  };
}

/** Forgets the kept statuses (tests). */
export function forgetCampaignStatuses(): void {
  kept.clear();
}
