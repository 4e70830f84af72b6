import { getActivity } from '../../../shared/mail-pipeline/activity/activity-repository';
import { upsertLeads } from '../../../shared/audience/leads/lead-upsert';
import { batchActivityId } from '../../../shared/mail-pipeline/batches/batch-ids';
import { getBatch } from '../../../shared/mail-pipeline/batches/batch-repository';
import type { Campaign } from '../../../shared/marketing/campaigns/campaign';
import { getCampaign, getCursor } from '../../../shared/marketing/campaigns/campaign-gateway';
import { waveId } from '../../../shared/marketing/campaigns/waves';
import { refreshConfig } from '../../../shared/platform/core/config';
import { services } from '../../../composition/services';
import { listSenders } from '../../../shared/identities/domains/sender-repository';
import type { FaultCloud } from './fault-cloud';

/**
 * Campaigns for the fault suite: leads written, a campaign created through the API (so its init
 * message is on the `campaigns` queue), and afterwards the mails its waves owned, read from the
 * derived wave and activity ids, each with the address it went to.
 */

/** A campaign created for a test: its id, the leads' addresses, and its template. */
export interface TestCampaign {
  readonly id: string;
  readonly templateId: string;
  readonly recipients: string[];
}

let senderId: string | undefined;

/** A template of the seeded project, made through the API. */
export async function campaignTemplate(fc: FaultCloud): Promise<string> {
  const res = await fc.cloud.api('POST', '/v1/templates', { body: { name: `faults-${Date.now()}-${Math.random().toString(36).slice(2, 7)}`, subject: 'Campaign {{name}}', html: '<p>Hi {{name}}</p>' } });
  if (res.status !== 201) throw new Error(`Template refused: ${res.status} ${JSON.stringify(res.body)}`);
  return (res.body.data as { id: string }).id;
}

/** A `POST /v1/campaigns` body to `leadIds` with `templateId` (its own name and subject: no duplicate window matches). */
export async function campaignBody(fc: FaultCloud, templateId: string, leadIds: string[]): Promise<Record<string, unknown>> {
  senderId ??= (await listSenders(services().db, fc.cloud.seed.project_id))[0].id;
  const tag = `${Date.now()}-${Math.random().toString(36).slice(2, 7)}`;
  return { name: `Faults ${tag}`, subject: `Faults ${tag} {{name}}`, templateId, senderProfileId: senderId, recipientIds: leadIds };
}

/** `n` leads whose addresses carry `tag`; their ids and addresses in order. */
export async function campaignLeads(fc: FaultCloud, tag: string, n: number): Promise<{ ids: string[]; emails: string[] }> {
  const { db, clock } = services();
  const emails = Array.from({ length: n }, (_, i) => `${tag}-${i}@example.com`);
  const ids: string[] = [];
  for (let i = 0; i < n; i += 100) {
    const { results } = await upsertLeads(db, clock, fc.cloud.seed.project_id, emails.slice(i, i + 100).map((email, j) => ({ email, data: { name: `Lead ${i + j}` }, segmentIds: [] })));
    ids.push(...results.map((r) => r.id));
  }
  return { ids, emails };
}

/**
 * A campaign to `n` new leads, created through the API. The local account's 50 mails a second would
 * make the engine hand out its tokens over many windows: campaigns here may send 2,000 a second.
 */
export async function startCampaign(fc: FaultCloud, tag: string, n: number): Promise<TestCampaign> {
  refreshConfig({ CAMPAIGN_SEND_RATE: '2000' });
  const templateId = await campaignTemplate(fc);
  const { ids, emails } = await campaignLeads(fc, tag, n);
  const res = await fc.cloud.api('POST', '/v1/campaigns', { body: await campaignBody(fc, templateId, ids) });
  if (res.status !== 200) throw new Error(`Campaign refused: ${res.status} ${JSON.stringify(res.body)}`);
  return { id: (res.body.campaign as { id: string }).id, templateId, recipients: emails };
}

/** The mails the campaign's released waves own: each activity id (derived from the wave's) with its address. */
export async function campaignMails(campaignId: string): Promise<{ id: string; recipient: string }[]> {
  const { db } = services();
  const cursor = await getCursor(db, campaignId);
  const mails: { id: string; recipient: string }[] = [];
  for (let wave = 0; ; wave++) {
    const batch = await getBatch(db, waveId(campaignId, wave), true);
    if (!batch) break;
    for (let i = 0; i < batch.recipient_count; i++) {
      const id = batchActivityId(batch.id, i);
      mails.push({ id, recipient: (await getActivity(db, id, true))?.recipient_primary ?? `(no activity ${id})` });
    }
  }
  if (mails.length < cursor.released) throw new Error(`Campaign ${campaignId}: ${cursor.released} released, ${mails.length} in its waves`);
  return mails;
}

/** The campaign as stored. */
export async function storedCampaign(campaignId: string): Promise<Campaign | undefined> {
  return getCampaign(services().db, campaignId, true);
}
