import { randomUUID } from 'node:crypto';
import type { SQSEvent } from 'aws-lambda';
import { PutCommand } from '@aws-sdk/lib-dynamodb';
import { handler as sesEventsHandler } from '../../functions/ses-events/handler';
import { asFunction, asFunctionCode } from '../../local/iam/function-roles';
import type { Activity, ActivityStatus } from '../../shared/mail-pipeline/activity/activity';
import { getActivity, putActivitiesInBatch } from '../../shared/mail-pipeline/activity/activity-repository';
import type { Campaign } from '../../shared/marketing/campaigns/campaign';
import { CampaignCounterBatch } from '../../shared/marketing/campaigns/campaign-counters';
import { readCampaignCounts } from '../../shared/marketing/campaigns/campaign-gateway';
import { services } from '../../composition/services';
import { runExport as runExportCode } from '../../shared/marketing/campaign-reports/export-run';
import { getExport } from '../../shared/marketing/campaign-reports/report-repository';
import { campaignKey, campaignListIndex } from '../../shared/platform/store/keys';
import { openToken } from '../../shared/mail-pipeline/tracking/tracking-tokens';
import { CLOUD_TIMEOUT_MS, startTestCloud, type TestCloud } from './support/test-cloud';

/** The SES events worker as Lambda runs it: as its own role. */
const sesEvents = asFunction('ses-events', sesEventsHandler);
/** The export worker's own code, called in place of its handler: run as its function's role. */
const runExport = asFunctionCode('campaign-export-worker', runExportCode);

/**
 * Campaign metrics from events and the campaign report (issue 17, items 7 and 8). The engine is
 * another branch: campaigns and their activity records are written here directly, as the batch
 * fan-out writes a wave's records (with `campaign_id`, so they join the campaign index).
 */

jest.setTimeout(180_000);

let cloud: TestCloud;
type Data = Record<string, any>;
let n = 0;

beforeAll(async () => {
  cloud = await startTestCloud({ workers: ['campaign-export-worker'] });
}, CLOUD_TIMEOUT_MS);
afterAll(() => cloud?.stop());

/** The API's answer with its body read as JSON data. */
async function api(method: string, path: string, options: { key: string }): Promise<{ status: number; body: Data }> {
  const res = await cloud.api(method, path, options);
  return { status: res.status, body: res.body as Data };
}

async function freshProject(): Promise<{ key: string; id: string }> {
  const res = await cloud.api('POST', '/v1/partner/projects', { key: cloud.seed.partner_key, body: { name: `Reports ${Date.now()}-${n++}` } });
  return { key: res.body.api_key as string, id: res.body.project_id as string };
}

async function putCampaign(projectId: string, released: number): Promise<Campaign> {
  const now = new Date().toISOString();
  const campaign: Campaign = {
    id: randomUUID(),
    project_id: projectId,
    mode: 'live',
    name: 'Spring news',
    subject: 'Spring news',
    template_id: randomUUID(),
    sender_profile_id: randomUUID(),
    status: 'processing',
    audience: { kind: 'all' },
    frozen_at: now,
    total_recipients: released,
    select_all_recipients: true,
    batch_mode: false,
    batch_interval_hours: 24,
    utm_campaign: 'spring-news',
    schedule_type: 'scheduled',
    created_at: now,
    updated_at: now,
    step: 1,
    released,
    name_lc: 'spring news',
    subject_lc: 'spring news',
  };
  const db = services().db;
  await db.doc.send(new PutCommand({ TableName: db.tableName, Item: { ...campaignKey(campaign.id), ...campaign, ...campaignListIndex(projectId, now, campaign.id) } }));
  return campaign;
}

/** `count` records of a campaign, as the fan-out writes them; `shape(i)` sets each one's outcome. */
async function putRecipients(campaign: Campaign, count: number, shape: (i: number) => Partial<Activity> = () => ({})): Promise<Activity[]> {
  // A millisecond apart and all in the past: an export takes only records created before it started.
  const base = Date.now() - count - 1000;
  const records: Activity[] = Array.from({ length: count }, (_, i) => {
    const at = new Date(base + i).toISOString();
    return {
      id: randomUUID(),
      project_id: campaign.project_id,
      created_at: at,
      updated_at: at,
      email_type: 'marketing',
      campaign_id: campaign.id,
      subject: campaign.subject,
      sender_email: 'news@example.com',
      recipient_primary: `r${i}@example.net`,
      recipient_count: 1,
      current_status: 'sent' as ActivityStatus,
      is_test: false,
      message_id: `m-${randomUUID()}`,
      sent_at: at,
      ...shape(i),
    };
  });
  await putActivitiesInBatch(services().db, records, Math.floor(Date.now() / 1000) + 86_400);
  return records;
}

function sqsEvent(bodies: unknown[]): SQSEvent {
  return {
    Records: bodies.map((body, i) => ({
      messageId: `msg-${i}-${randomUUID()}`,
      receiptHandle: 'r',
      body: JSON.stringify(body),
      attributes: {} as SQSEvent['Records'][number]['attributes'],
      messageAttributes: {},
      md5OfBody: '',
      eventSource: 'aws:sqs',
      eventSourceARN: 'arn:aws:sqs:us-east-1:000000000000:ses-events',
      awsRegion: 'us-east-1',
    })),
  };
}

/** A raw SES event record for an activity (SNS raw message delivery). */
function sesEvent(a: Activity, type: 'Delivery' | 'Bounce' | 'Complaint', extra: Data = {}): Data {
  const timestamp = new Date().toISOString();
  const mail = { messageId: a.message_id, timestamp, destination: [a.recipient_primary], tags: { activity_id: [a.id], project_id: [a.project_id] } };
  if (type === 'Delivery') return { eventType: 'Delivery', mail, delivery: { timestamp, recipients: [a.recipient_primary] } };
  if (type === 'Bounce') return { eventType: 'Bounce', mail, bounce: { timestamp, bounceType: extra.bounceType ?? 'Permanent', bounceSubType: 'General', bouncedRecipients: [{ emailAddress: a.recipient_primary }], feedbackId: `f-${a.id}` } };
  return { eventType: 'Complaint', mail, complaint: { timestamp, complainedRecipients: [{ emailAddress: a.recipient_primary }], feedbackId: `c-${a.id}` } };
}

describe('campaign counters from SES events (ses-events worker)', () => {
  test('delivered, hard_bounced, soft_bounced and complained count once each, even when SES delivers the events twice', async () => {
    const { id: projectId } = await freshProject();
    const campaign = await putCampaign(projectId, 5);
    const [d1, d2, hard, soft, complainer] = await putRecipients(campaign, 5);
    const events = [sesEvent(d1, 'Delivery'), sesEvent(d2, 'Delivery'), sesEvent(hard, 'Bounce'), sesEvent(soft, 'Bounce', { bounceType: 'Transient' }), sesEvent(complainer, 'Delivery')];
    const result = await sesEvents(sqsEvent(events));
    expect(result.batchItemFailures).toEqual([]);
    // The same events again (an SQS redelivery or SES's at-least-once), and a complaint.
    await sesEvents(sqsEvent([...events, sesEvent(complainer, 'Complaint')]));
    await sesEvents(sqsEvent([sesEvent(complainer, 'Complaint')]));
    const counts = await readCampaignCounts(services().db, campaign.id);
    expect(counts).toMatchObject({ delivered: 3, hard_bounced: 1, soft_bounced: 1, complained: 1 });
  });

  test('a mail of no campaign adds to no campaign counter', async () => {
    const { id: projectId } = await freshProject();
    const campaign = await putCampaign(projectId, 1);
    const [lone] = await putRecipients(campaign, 1, () => ({ campaign_id: undefined }));
    await sesEvents(sqsEvent([sesEvent(lone, 'Delivery')]));
    expect((await readCampaignCounts(services().db, campaign.id)).delivered).toBe(0);
  });
});

describe('opens of campaign mails (tracking pixel)', () => {
  const pixel = async (activityId: string, headers: Record<string, string>) => {
    const token = openToken(activityId, await services().tokenSecret());
    const res = await fetch(`${cloud.baseUrl}/t/o/${token}.gif`, { headers });
    expect(res.status).toBe(200);
  };

  test("Apple's proxy counts machine_opened, not opened; the reader's open later counts opened and sets human_opened_at; repeats count nothing", async () => {
    const { id: projectId } = await freshProject();
    const campaign = await putCampaign(projectId, 1);
    const [mail] = await putRecipients(campaign, 1, () => ({ current_status: 'delivered' }));
    await pixel(mail.id, { 'user-agent': 'Mozilla/5.0', 'x-forwarded-for': '17.58.1.2' });
    await pixel(mail.id, { 'user-agent': 'Mozilla/5.0', 'x-forwarded-for': '17.58.1.3' });
    let counts = await readCampaignCounts(services().db, campaign.id);
    expect(counts).toMatchObject({ opened: 0, machine_opened: 1 });
    expect((await getActivity(services().db, mail.id))?.human_opened_at).toBeUndefined();

    await pixel(mail.id, { 'user-agent': 'Mozilla/5.0 (Windows NT 10.0) Thunderbird/128.0', 'x-forwarded-for': '203.0.113.7' });
    await pixel(mail.id, { 'user-agent': 'Mozilla/5.0 (Windows NT 10.0) Thunderbird/128.0', 'x-forwarded-for': '203.0.113.7' });
    counts = await readCampaignCounts(services().db, campaign.id);
    expect(counts).toMatchObject({ opened: 1, machine_opened: 1 });
    const stored = await getActivity(services().db, mail.id);
    expect(stored?.human_opened_at).toEqual(expect.any(String));
    expect(stored?.machine_opened_at).toEqual(expect.any(String));
  });
});

describe('GET /v1/campaigns/:id/recipients', () => {
  test('every recipient with its outcome, paged newest first, with the total', async () => {
    const { key, id: projectId } = await freshProject();
    const campaign = await putCampaign(projectId, 30);
    await putRecipients(campaign, 30, (i) =>
      i % 3 === 0 ? { current_status: 'delivered', delivered_at: new Date().toISOString(), human_opened_at: new Date().toISOString(), clicked_first_at: new Date().toISOString() } : {},
    );
    const first = await api('GET', `/v1/campaigns/${campaign.id}/recipients?per_page=20`, { key });
    expect(first.status).toBe(200);
    expect(first.body.pagination).toEqual({ page: 1, per_page: 20, total: 30, total_is_estimate: false, next_cursor: expect.any(String) });
    expect(first.body.recipients).toHaveLength(20);
    expect(first.body.recipients[0]).toEqual({
      email: 'r29@example.net',
      activity_id: expect.any(String),
      status: 'sent',
      sent_at: expect.any(String),
      delivered_at: null,
      opened: false,
      opened_at: null,
      machine_opened: false,
      clicked: false,
      clicked_at: null,
      bounced: false,
      bounced_at: null,
      complained: false,
      left_out_reason: null,
    });
    const second = await api('GET', `/v1/campaigns/${campaign.id}/recipients?per_page=20&page=2`, { key });
    expect(second.body.recipients).toHaveLength(10);
    const emails = [...first.body.recipients, ...second.body.recipients].map((r: Data) => r.email);
    expect(new Set(emails).size).toBe(30);
  });

  test('?status=delivered lists only the delivered, with opened and clicked', async () => {
    const { key, id: projectId } = await freshProject();
    const campaign = await putCampaign(projectId, 12);
    await putRecipients(campaign, 12, (i) => (i % 4 === 0 ? { current_status: 'delivered', delivered_at: new Date().toISOString(), human_opened_at: new Date().toISOString() } : {}));
    const res = await api('GET', `/v1/campaigns/${campaign.id}/recipients?status=delivered`, { key });
    expect(res.status).toBe(200);
    expect(res.body.recipients).toHaveLength(3);
    expect(res.body.pagination).toEqual({ per_page: 50, read: 12, next_cursor: null });
    expect(res.body.recipients.every((r: Data) => r.status === 'delivered' && r.opened === true)).toBe(true);
  });

  test('bad filters and pages are 400s', async () => {
    const { key, id: projectId } = await freshProject();
    const campaign = await putCampaign(projectId, 0);
    expect((await api('GET', `/v1/campaigns/${campaign.id}/recipients?status=lost`, { key })).status).toBe(400);
    expect((await api('GET', `/v1/campaigns/${campaign.id}/recipients?per_page=0`, { key })).status).toBe(400);
    expect((await api('GET', `/v1/campaigns/${campaign.id}/left-out?reason=bored`, { key })).status).toBe(400);
  });

  test("another project's campaign is a 404 NOT_FOUND, on every report endpoint", async () => {
    const owner = await freshProject();
    const other = await freshProject();
    const campaign = await putCampaign(owner.id, 1);
    await putRecipients(campaign, 1);
    for (const [method, path] of [
      ['GET', `/v1/campaigns/${campaign.id}/recipients`],
      ['GET', `/v1/campaigns/${campaign.id}/left-out`],
      ['POST', `/v1/campaigns/${campaign.id}/exports`],
      ['GET', `/v1/campaigns/${campaign.id}/exports/${randomUUID()}`],
      ['GET', `/v1/campaigns/${randomUUID()}/recipients`],
      ['GET', `/v1/campaigns/${'a'.repeat(3000)}/recipients`],
      ['GET', `/v1/campaigns/${campaign.id}/exports/${'b'.repeat(3000)}`],
    ]) {
      const res = await api(method, path, { key: other.key });
      expect([path.slice(0, 80), res.status, res.body.error]).toEqual([path.slice(0, 80), 404, 'NOT_FOUND']);
    }
  });

  test('a filtered request reads at most 10 records per row of its page, answering what it found and a cursor to read on', async () => {
    const { key, id: projectId } = await freshProject();
    const campaign = await putCampaign(projectId, 250_000);
    // 120 records, three of them bounced: one near the start, two far apart at the end.
    await putRecipients(campaign, 120, (i) => ([7, 100, 119].includes(i) ? { current_status: 'bounced', bounced_at: new Date().toISOString() } : {}));
    const found: string[] = [];
    let cursor: string | null = null;
    let requests = 0;
    do {
      const res = await api('GET', `/v1/campaigns/${campaign.id}/recipients?status=bounced&per_page=2${cursor ? `&cursor=${cursor}` : ''}`, { key });
      expect(res.status).toBe(200);
      expect(res.body.pagination.read).toBeLessThanOrEqual(20);
      expect(res.body.recipients.length).toBeLessThanOrEqual(2);
      found.push(...res.body.recipients.map((r: Data) => r.email as string));
      cursor = res.body.pagination.next_cursor;
      requests++;
    } while (cursor && requests < 20);
    expect(found.sort()).toEqual(['r100@example.net', 'r119@example.net', 'r7@example.net']);
    // 120 records at no more than 20 a request: at least six requests, each bounded.
    expect(requests).toBeGreaterThanOrEqual(6);
  });

  test('a cursor names a position of its own list only: a forged, foreign or garbled one is a 400', async () => {
    const owner = await freshProject();
    const mine = await putCampaign(owner.id, 3);
    const other = await putCampaign(owner.id, 3);
    await putRecipients(other, 3);
    const theirs = await api('GET', `/v1/campaigns/${other.id}/recipients?status=sent&per_page=1`, { key: owner.key });
    const foreign = theirs.body.pagination.next_cursor as string;
    expect(foreign).toEqual(expect.any(String));
    const forged = (start: Record<string, string>) => Buffer.from(JSON.stringify({ shard: 0, start })).toString('base64url');
    const ownShard = JSON.parse(Buffer.from(foreign, 'base64url').toString()).start.gsi6pk.replace(other.id, mine.id).replace(/#\d+$/, '#0');
    for (const cursor of [
      foreign,
      'not-a-cursor',
      Buffer.from('{"shard":99}').toString('base64url'),
      '%%%',
      forged({ pk: '', sk: 'ACT', gsi6pk: ownShard, gsi6sk: 'x' }),
      forged({ pk: 'ACT#x', sk: 'ACT', gsi6pk: ownShard, gsi6sk: '\ud800' }),
    ]) {
      const res = await api('GET', `/v1/campaigns/${mine.id}/recipients?status=sent&cursor=${encodeURIComponent(cursor)}`, { key: owner.key });
      expect([cursor.slice(0, 20), res.status, res.body.message ?? res.body.error]).toEqual([cursor.slice(0, 20), 400, expect.stringContaining('cursor')]);
    }
    // A forged start key of the campaign's own shard only moves within its list.
    const within = await api('GET', `/v1/campaigns/${mine.id}/recipients?status=sent&cursor=${forged({ pk: 'ACT#x', sk: 'ACT', gsi6pk: ownShard, gsi6sk: '0' })}`, { key: owner.key });
    expect(within.status).toBe(200);
    const paged = await api('GET', `/v1/campaigns/${mine.id}/left-out?page=2`, { key: owner.key });
    expect(paged.status).toBe(400);
    expect(JSON.stringify(paged.body)).toContain('next_cursor');
  });
});

describe('GET /v1/campaigns/:id/left-out', () => {
  test('the recipients left out, with why: suppressed, unsubscribed or invalid', async () => {
    const { key, id: projectId } = await freshProject();
    const campaign = await putCampaign(projectId, 10);
    const reasons = ['bounce', 'unsubscribe', 'invalid_email', 'complaint', 'unsubscribe'];
    await putRecipients(campaign, 10, (i) => (i < reasons.length ? { current_status: 'suppressed', suppression_reason: reasons[i], sent_at: undefined } : {}));
    const counters = new CampaignCounterBatch();
    counters.add(campaign.id, 'suppressed', 5);
    await counters.flush(services().db);
    const res = await api('GET', `/v1/campaigns/${campaign.id}/left-out`, { key });
    expect(res.status).toBe(200);
    expect(res.body.left_out).toEqual({ total: 5 });
    expect(res.body.recipients).toHaveLength(5);
    expect(res.body.pagination).toEqual({ per_page: 50, read: 10, next_cursor: null });
    expect(res.body.recipients).toContainEqual({ email: 'r2@example.net', activity_id: expect.any(String), reason: 'invalid', suppression_reason: 'invalid_email' });
    const unsubscribed = await api('GET', `/v1/campaigns/${campaign.id}/left-out?reason=unsubscribed`, { key });
    expect(unsubscribed.body.recipients.map((r: Data) => r.email).sort()).toEqual(['r1@example.net', 'r4@example.net']);
  });

  test('a page that fills stops at its last row: the cursor reads on from the next record, none skipped or repeated', async () => {
    const { key, id: projectId } = await freshProject();
    const campaign = await putCampaign(projectId, 30);
    await putRecipients(campaign, 30, (i) => (i % 3 === 0 ? { current_status: 'suppressed', suppression_reason: 'bounce', sent_at: undefined } : {}));
    const seen: string[] = [];
    let cursor: string | null = null;
    do {
      const res = await api('GET', `/v1/campaigns/${campaign.id}/left-out?per_page=3${cursor ? `&cursor=${cursor}` : ''}`, { key });
      expect(res.body.pagination.read).toBeLessThanOrEqual(30);
      seen.push(...res.body.recipients.map((r: Data) => r.email as string));
      cursor = res.body.pagination.next_cursor;
    } while (cursor);
    expect(seen).toHaveLength(10);
    expect(new Set(seen).size).toBe(10);
  });
});

/** Polls an export until it is completed or failed. */
async function settledExport(key: string, campaignId: string, exportId: string): Promise<Data> {
  const deadline = Date.now() + 120_000;
  for (;;) {
    const res = await api('GET', `/v1/campaigns/${campaignId}/exports/${exportId}`, { key });
    expect(res.status).toBe(200);
    if (res.body.export.status !== 'running') return res.body.export as Data;
    if (Date.now() > deadline) throw new Error(`Export never settled: ${JSON.stringify(res.body)}`);
    await new Promise((r) => setTimeout(r, 250));
  }
}

const csvRows = (text: string) => text.trim().split('\r\n');

describe('POST /v1/campaigns/:id/exports', () => {
  test('300 recipients: 202 at once, the worker writes the CSV, and the download URL serves every outcome once', async () => {
    const { key, id: projectId } = await freshProject();
    const campaign = await putCampaign(projectId, 300);
    const records = await putRecipients(campaign, 300, (i) =>
      i % 10 === 0 ? { current_status: 'bounced', bounced_at: new Date().toISOString() } : i % 7 === 0 ? { recipient_primary: `"Quote, ${i}"@example.net` } : {},
    );
    const started = await api('POST', `/v1/campaigns/${campaign.id}/exports`, { key });
    expect(started.status).toBe(202);
    expect(started.body.export).toMatchObject({ status: 'running', campaign_id: campaign.id, download_url: null });
    const done = await settledExport(key, campaign.id, started.body.export.id);
    expect(done).toMatchObject({ status: 'completed', rows: 300 });
    const csv = await (await fetch(done.download_url)).text();
    const rows = csvRows(csv);
    expect(rows[0]).toBe('email,activity_id,status,sent_at,delivered_at,opened,opened_at,machine_opened,clicked,clicked_at,bounced,bounced_at,complained,left_out_reason');
    expect(rows).toHaveLength(301);
    const ids = new Set(records.map((r) => r.id));
    for (const id of ids) expect(csv).toContain(id);
    expect(csv).toContain('"""Quote, 7""@example.net"');
    expect(rows.slice(1).filter((r) => r.includes(',bounced,')).length).toBe(30);
  });

  test('ten parallel starts run one export: every answer names it; once it is done, a new start runs a new one', async () => {
    const { key, id: projectId } = await freshProject();
    const campaign = await putCampaign(projectId, 20);
    await putRecipients(campaign, 20);
    const starts = await Promise.all(Array.from({ length: 10 }, () => api('POST', `/v1/campaigns/${campaign.id}/exports`, { key })));
    expect(starts.map((r) => r.status)).toEqual(Array(10).fill(202));
    const ids = new Set(starts.map((r) => r.body.export.id as string));
    expect(ids.size).toBe(1);
    const [id] = [...ids];
    const done = await settledExport(key, campaign.id, id);
    expect(done).toMatchObject({ status: 'completed', rows: 20 });
    const again = await api('POST', `/v1/campaigns/${campaign.id}/exports`, { key });
    expect(again.status).toBe(202);
    expect(again.body.export.id).not.toBe(id);
    expect((await settledExport(key, campaign.id, again.body.export.id)).status).toBe('completed');
  });

  test('a running export whose run was lost is queued again by a repeat start, once per stall', async () => {
    const { id: projectId } = await freshProject();
    const campaign = await putCampaign(projectId, 3);
    const { startExport, STALLED_EXPORT_MS } = await import('../../shared/marketing/campaign-reports/campaign-report');
    const sent: unknown[] = [];
    const at = (ms: number) => ({ ...services(), queue: { send: async (_q: string, job: unknown) => void sent.push(job) } as never, clock: { now: () => new Date(Date.now() + ms) } });
    // The record is written, its queue message never is (a crash between the two).
    const lost = (await startExport({ ...services(), queue: { send: async () => undefined } as never }, projectId, campaign.id)).export as Data;
    expect(((await startExport(at(0), projectId, campaign.id)).export as Data).id).toBe(lost.id);
    expect(sent).toHaveLength(0);
    const later = at(STALLED_EXPORT_MS + 60_000);
    const repeats = await Promise.all([startExport(later, projectId, campaign.id), startExport(later, projectId, campaign.id)]);
    expect(repeats.map((r) => (r.export as Data).id)).toEqual([lost.id, lost.id]);
    expect(sent).toEqual([{ kind: 'run', project_id: projectId, campaign_id: campaign.id, export_id: lost.id }]);
  });

  test('written in several parts, a replayed part (crash after its upload) leaves every row once', async () => {
    const { id: projectId } = await freshProject();
    const campaign = await putCampaign(projectId, 400);
    const records = await putRecipients(campaign, 400);
    // An export record without its queue message: this test runs the worker's steps itself.
    const { startExport } = await import('../../shared/marketing/campaign-reports/campaign-report');
    const quiet = { ...services(), queue: { send: async () => undefined } as never };
    const created = (await startExport(quiet, projectId, campaign.id)).export as Data;
    const job = { kind: 'run' as const, project_id: projectId, campaign_id: campaign.id, export_id: created.id as string };

    // A run that stops right after uploading its first part, before its checkpoint.
    let uploads = 0;
    const crashing = {
      ...services(),
      blobs: {
        ...services().blobs,
        startUpload: (k: string, t: string) => services().blobs.startUpload(k, t),
        uploadPart: async (k: string, u: string, p: number, b: Buffer) => {
          const etag = await services().blobs.uploadPart(k, u, p, b);
          if (++uploads === 1) throw new Error('crash after upload');
          return etag;
        },
      },
    };
    await expect(runExport(crashing as never, job, { partBytes: 4000 })).rejects.toThrow('crash after upload');
    await runExport(services(), job, { partBytes: 4000 });
    const record = await getExport(services().db, campaign.id, created.id as string);
    expect(record?.status).toBe('completed');
    expect(record!.parts.length).toBeGreaterThan(3);
    expect(record!.parts[0].partNumber).toBe(2);
    const csv = (await services().blobs.get(record!.object_key)).toString('utf8');
    const rows = csvRows(csv).slice(1);
    expect(rows).toHaveLength(400);
    expect(new Set(rows.map((r) => r.split(',')[1]))).toEqual(new Set(records.map((r) => r.id)));
  });
});
