import { createHash } from 'node:crypto';
import type { Batch, BatchContent, BatchRecipient } from '../../mail-pipeline/batches/batch';
import { chunkJobs } from '../../mail-pipeline/batches/batch-jobs';
import { getBatch, putBatch, putBatchBlobs } from '../../mail-pipeline/batches/batch-repository';
import type { Needs } from '../../platform/core/dependencies';
import { ttlAfterDays } from '../../platform/store/client';
import type { Campaign } from './campaign';
import type { CursorPosition } from './audience-cursor';
import { BATCH_CHUNK_SIZE } from '../../mail-pipeline';

/**
 * The batch id of wave `wave` of a campaign: derived, so a replayed step writes the same wave and
 * its recipients get the same activity ids (batchActivityId), whose claims send nobody twice. A
 * version-4-shaped UUID whose last four hex digits are zero, as batch ids are (batch-ids.ts).
 */
export function waveId(campaignId: string, wave: number): string {
  const h = createHash('sha256').update(`campaign-wave:${campaignId}:${wave}`).digest('hex');
  const variant = ((parseInt(h[16], 16) & 0x3) | 0x8).toString(16);
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-4${h.slice(13, 16)}-${variant}${h.slice(17, 20)}-${h.slice(20, 28)}0000`;
}

/** What every mail of a campaign shares: its template, subject, sender, and the variables of the campaign itself. */
export function campaignContent(campaign: Campaign, sender: { from_email: string; from_name?: string }): BatchContent {
  return {
    sender: sender.from_email,
    senderName: sender.from_name || undefined,
    subject: campaign.subject,
    templateId: campaign.template_id,
    data: { utm_campaign: campaign.utm_campaign, ...(campaign.preview_text ? { preview_text: campaign.preview_text } : {}) },
    emailType: 'marketing',
    customHeaders: {},
  };
}

/** A written wave: its header as stored (a replay finds the first run's), and so the cursor's position after it. */
export interface Wave {
  batch: Batch;
  position: CursorPosition;
  exhausted: boolean;
}

/**
 * Writes wave `wave` as a batch (content blob, recipient chunks, header with the campaign and the
 * cursor's position after it) and queues its fan-out. When the header exists already (a step that
 * crashed before saving its cursor, run again), the stored wave is queued again as it was: the
 * fan-out and the claims make that a no-op for what was done.
 */
export async function releaseWave(
  deps: Needs<'db' | 'blobs' | 'queue' | 'clock' | 'config'>,
  input: { campaign: Campaign; wave: number; content: BatchContent; recipients: BatchRecipient[]; position: CursorPosition; exhausted: boolean },
): Promise<Wave> {
  const { campaign } = input;
  const id = waveId(campaign.id, input.wave);
  let batch = await getBatch(deps.db, id, true);
  if (!batch) {
    const now = deps.clock.now();
    const fresh: Batch = {
      id,
      project_id: campaign.project_id,
      mode: campaign.mode,
      status: 'sending',
      created_at: now.toISOString(),
      updated_at: now.toISOString(),
      recipient_count: input.recipients.length,
      duplicates_removed: 0,
      chunk_size: BATCH_CHUNK_SIZE,
      chunk_count: Math.ceil(input.recipients.length / BATCH_CHUNK_SIZE),
      subject: campaign.subject,
      sender_email: input.content.sender,
      sender_name: input.content.senderName,
      email_type: 'marketing',
      template_id: campaign.template_id,
      campaign_id: campaign.id,
      campaign_position: input.position as Record<string, unknown>,
      campaign_exhausted: input.exhausted,
    };
    await putBatchBlobs(deps.blobs, fresh, input.content, input.recipients);
    // A redelivered wave finds its batch written by the first delivery: it goes on with that one.
    batch = (await putBatch(deps.db, fresh, ttlAfterDays(now, deps.config.ACTIVITY_RETENTION_DAYS))) ? fresh : (await getBatch(deps.db, id, true))!;
  }
  if (batch.chunk_count > 0) await deps.queue.sendBatch('fanout', chunkJobs(batch));
  return { batch, position: (batch.campaign_position ?? {}) as CursorPosition, exhausted: batch.campaign_exhausted === true };
}
