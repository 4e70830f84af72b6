import { randomUUID } from 'node:crypto';
import type { Activity } from '../../shared/mail-pipeline/activity/activity';
import { putActivity } from '../../shared/mail-pipeline/activity/activity-repository';
import { upsertLeads } from '../../shared/audience/leads/lead-upsert';
import type { Campaign } from '../../shared/marketing/campaigns/campaign';
import { readAudiencePage, type CursorPosition } from '../../shared/marketing/campaigns/audience-cursor';
import { services } from '../../composition/services';
import { CLOUD_TIMEOUT_MS, startTestCloud, type TestCloud } from './support/test-cloud';

/**
 * Issue 17, item 8: a follow-up campaign goes to the recipients of an earlier campaign that were not
 * delivered, or not opened by a person: a machine open (Apple Mail Privacy Protection) is no open.
 */

let cloud: TestCloud;

beforeAll(async () => {
  cloud = await startTestCloud({ workers: false });
}, CLOUD_TIMEOUT_MS);
afterAll(() => cloud?.stop());

/** The outcomes of the earlier campaign's mails, one lead each. */
const OUTCOMES: Record<string, Partial<Activity> & { human_opened_at?: string; machine_opened_at?: string }> = {
  opened: { current_status: 'delivered', delivered_at: '2026-11-01T10:00:01Z', opened_first_at: '2026-11-01T11:00:00Z', human_opened_at: '2026-11-01T11:00:00Z' },
  'machine-only': { current_status: 'delivered', delivered_at: '2026-11-01T10:00:01Z', opened_first_at: '2026-11-01T10:00:05Z', machine_opened_at: '2026-11-01T10:00:05Z' },
  'delivered-unopened': { current_status: 'delivered', delivered_at: '2026-11-01T10:00:01Z' },
  'sent-only': { current_status: 'sent', sent_at: '2026-11-01T10:00:00Z' },
  bounced: { current_status: 'bounced', bounced_at: '2026-11-01T10:00:02Z' },
  clicked: { current_status: 'delivered', delivered_at: '2026-11-01T10:00:01Z', opened_first_at: '2026-11-01T11:00:00Z', human_opened_at: '2026-11-01T11:00:00Z', clicked_first_at: '2026-11-01T11:00:03Z' },
};

async function earlierCampaign(tag: string): Promise<string> {
  const deps = services();
  const projectId = cloud.seed.project_id;
  const campaignId = randomUUID();
  const inputs = Object.keys(OUTCOMES).map((outcome) => ({ email: `${tag}-${outcome}@example.com`, data: {}, segmentIds: [] }));
  await upsertLeads(deps.db, deps.clock, projectId, inputs);
  for (const [outcome, fields] of Object.entries(OUTCOMES)) {
    const activity = {
      id: randomUUID(),
      project_id: projectId,
      created_at: '2026-11-01T10:00:00Z',
      updated_at: '2026-11-01T12:00:00Z',
      email_type: 'marketing',
      campaign_id: campaignId,
      subject: 'First',
      sender_email: cloud.seed.sender_email,
      recipient_primary: `${tag}-${outcome}@example.com`,
      recipient_count: 1,
      is_test: false,
      ...fields,
    } as Activity;
    await putActivity(deps.db, activity, Math.floor(Date.now() / 1000) + 3600);
  }
  return campaignId;
}

/** A follow-up campaign to `audience` of `earlierId`, frozen now. */
function followUp(earlierId: string, audience: 'not_delivered' | 'not_opened'): Campaign {
  const now = new Date().toISOString();
  return {
    id: randomUUID(),
    project_id: cloud.seed.project_id,
    audience: { kind: 'follow_up', campaign_id: earlierId, audience },
    frozen_at: now,
  } as Campaign;
}

/** Every lead the cursor yields for `campaign`, page by page. */
async function audienceOf(campaign: Campaign): Promise<string[]> {
  const emails: string[] = [];
  let position: CursorPosition = {};
  for (let page = 0; page < 50; page++) {
    const read = await readAudiencePage(services(), campaign, position, 2);
    emails.push(...read.leads.map((l) => l.email));
    position = read.position;
    if (read.exhausted) break;
  }
  return emails.sort();
}

describe('a follow-up campaign', () => {
  it('to those not opened: delivered or sent mails without a human open, a machine open counting as none', async () => {
    const tag = `fu-${randomUUID().slice(0, 8)}`;
    const earlier = await earlierCampaign(tag);
    expect(await audienceOf(followUp(earlier, 'not_opened'))).toEqual([`${tag}-delivered-unopened@example.com`, `${tag}-machine-only@example.com`, `${tag}-sent-only@example.com`].sort());
  });

  it('to those not delivered: mails that never reached the mailbox', async () => {
    const tag = `fd-${randomUUID().slice(0, 8)}`;
    const earlier = await earlierCampaign(tag);
    expect(await audienceOf(followUp(earlier, 'not_delivered'))).toEqual([`${tag}-bounced@example.com`, `${tag}-sent-only@example.com`].sort());
  });

  it('reads only the earlier campaign of its own project', async () => {
    const tag = `fo-${randomUUID().slice(0, 8)}`;
    const earlier = await earlierCampaign(tag);
    const foreign = { ...followUp(earlier, 'not_opened'), project_id: randomUUID() };
    expect(await audienceOf(foreign)).toEqual([]);
  });
});
