import { randomUUID } from 'node:crypto';
import { PutCommand } from '@aws-sdk/lib-dynamodb';
import { services } from '../../../composition/services';
import type { Campaign } from '../../../shared/marketing/campaigns/campaign';
import { campaignIdsObjectKey } from '../../../shared/marketing/campaigns/audience-cursor';
import { campaignKey, campaignListIndex } from '../../../shared/platform/store/keys';

/** What every test campaign needs: whose it is, what it sends, and to which lead ids. */
export interface CampaignBase {
  projectId: string;
  templateId: string;
  senderId: string;
  ids: readonly string[];
  /** Its creation time (now unless given). */
  createdAt?: string;
}

/**
 * Writes a campaign as the API writes it (its frozen id list in the bucket, its item and list entry),
 * live, in `initializing`, to `base.ids`, with `over` on top; answers it.
 */
export async function putCampaign(base: CampaignBase, over: Partial<Campaign> = {}): Promise<Campaign> {
  const deps = services();
  const now = base.createdAt ?? new Date().toISOString();
  const id = randomUUID();
  const campaign: Campaign = {
    id,
    project_id: base.projectId,
    mode: 'live',
    name: `c-${id}`,
    subject: 'Hello {{name}}',
    template_id: base.templateId,
    sender_profile_id: base.senderId,
    status: 'initializing',
    audience: { kind: 'ids', count: base.ids.length },
    frozen_at: now,
    total_recipients: base.ids.length,
    select_all_recipients: false,
    batch_mode: false,
    batch_interval_hours: 0,
    utm_campaign: `utm-${id.slice(0, 8)}`,
    schedule_type: 'scheduled',
    created_at: now,
    updated_at: now,
    step: 0,
    released: 0,
    name_lc: `c-${id}`,
    subject_lc: 'hello {{name}}',
    ...over,
  };
  await deps.blobs.put(campaignIdsObjectKey(campaign.project_id, id), Buffer.from(JSON.stringify(base.ids)));
  await deps.db.doc.send(new PutCommand({ TableName: deps.db.tableName, Item: { ...campaignKey(id), ...campaignListIndex(campaign.project_id, now, id), ...campaign } }));
  return campaign;
}
