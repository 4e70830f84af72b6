import fs from 'node:fs';
import path from 'node:path';
import type { SQSEvent } from 'aws-lambda';
import { handler as sesEventsHandler } from '../../functions/ses-events/handler';
import { asFunction } from '../../local/iam/function-roles';
import { services } from '../../composition/services';
import { putDomain } from '../../shared/identities/domains/domain-repository';
import { createProject } from '../../shared/platform/projects/project-service';
import { CLOUD_TIMEOUT_MS, sendBody, startTestCloud, type TestCloud } from './support/test-cloud';

/** The SES events worker as Lambda runs it: as its own role. */
const sesEvents = asFunction('ses-events', sesEventsHandler);

const FIXTURES = path.join(__dirname, '..', 'fixtures', 'ses');
const HOUR = 3_600_000;
const DAY = 24 * HOUR;

let cloud: TestCloud;
let liveKey: string;
let testKey: string;
let projectId: string;
const domain = 'counted.example.org';

beforeAll(async () => {
  cloud = await startTestCloud();
  const { db, clock } = services();
  const created = await createProject(db, clock, { organizationId: cloud.seed.organization_id, name: 'Counted' });
  liveKey = created.liveKey;
  testKey = created.testKey;
  projectId = created.project.id;
  const now = new Date().toISOString();
  await putDomain(db, { project_id: projectId, domain, identity_id: 'i', verification_status: 'verified', can_send: true, created_at: now, updated_at: now });
}, CLOUD_TIMEOUT_MS);
afterAll(async () => {
  await cloud?.stop();
});

type Figures = Record<'sent' | 'delivered' | 'bounced' | 'bounced_transient' | 'complained' | 'opened' | 'clicked' | 'failed' | 'suppressed', number>;
interface Series {
  mode: string;
  interval: string;
  since: string;
  until: string;
  buckets: (Figures & { start: string })[];
  totals: Figures;
  rates: Record<string, number | boolean>;
}

const send = (recipient: string, key = liveKey) =>
  cloud.api('POST', '/v1/send-email', { key, body: sendBody(cloud, { sender_email: `news@${domain}`, recipient_email: recipient }) });
const stats = async (query = '', key = liveKey): Promise<Series> => {
  const res = await cloud.api('GET', `/v1/stats${query}`, { key });
  expect(res.status).toBe(200);
  return res.body.data as unknown as Series;
};

/** Reads the statistics until they satisfy `until`: the workers add their counters once a batch has settled. */
async function statsWhen(query: string, until: (s: Series) => boolean, key = liveKey): Promise<Series> {
  const deadline = Date.now() + 15_000;
  for (;;) {
    const s = await stats(query, key);
    if (until(s) || Date.now() > deadline) return s;
    await new Promise((r) => setTimeout(r, 200));
  }
}

/** Feeds SES event JSON straight to the ses-events handler, as the queue would. */
async function feed(...bodies: unknown[]) {
  const event = { Records: bodies.map((b, i) => ({ messageId: `m${i}-${Date.now()}`, body: JSON.stringify(b) })) } as SQSEvent;
  return (await sesEvents(event)) as { batchItemFailures: unknown[] };
}

/** A documented sample, re-tagged for one of our activities, at `timestamp`. */
function fixture(name: string, activityId: string, messageId: string, timestamp: string): Record<string, any> {
  const sample = JSON.parse(fs.readFileSync(path.join(FIXTURES, `${name}.json`), 'utf8'));
  const record = sample.Message ? JSON.parse(sample.Message) : (sample.detail ?? sample);
  record.mail.tags.activity_id = [activityId];
  record.mail.tags.project_id = [projectId];
  record.mail.messageId = messageId;
  const inner = Object.keys(record).find((k) => !['eventType', 'mail', 'notificationType'].includes(k));
  if (inner && record[inner] && typeof record[inner] === 'object' && 'timestamp' in record[inner]) record[inner].timestamp = timestamp;
  // A Reject has no time of its own: SES's mail timestamp tells it.
  else record.mail.timestamp = timestamp;
  if (sample.Message) sample.Message = JSON.stringify(record);
  return sample;
}

/** A sent mail whose SES events the test feeds by hand (the simulator publishes only its Send). */
async function quietMail(): Promise<{ id: string; messageId: string }> {
  const res = await send(`quiet.${Date.now()}.${Math.random().toString(36).slice(2)}@simulator.amazonses.com`);
  const a = await cloud.waitForActivity(res.body.email_id as string, liveKey, (x) => x.current_status !== 'queued');
  return { id: a.id as string, messageId: a.message_id as string };
}

const utcHour = (at: number) => new Date(Math.floor(at / HOUR) * HOUR).toISOString();
const utcDay = (at: number) => new Date(Math.floor(at / DAY) * DAY).toISOString();

describe('GET /v1/stats counts the project\'s mail and SES events', () => {
  let before: Figures;

  test('a new project has every bucket of the default period, all zero, and no rate over', async () => {
    const s = await stats();
    expect(s).toMatchObject({ mode: 'live', interval: 'day' });
    expect(s.buckets).toHaveLength(30);
    expect(s.buckets[29].start).toBe(utcDay(Date.now()));
    expect(s.until).toBe(new Date(Date.parse(utcDay(Date.now())) + DAY).toISOString());
    expect(s.totals).toEqual({ sent: 0, delivered: 0, bounced: 0, bounced_transient: 0, complained: 0, opened: 0, clicked: 0, failed: 0, suppressed: 0 });
    expect(s.rates).toMatchObject({ bounce_rate: 0, complaint_rate: 0, bounce_over_review: false, complaint_over_review: false });
    before = s.totals;
  });

  test('the mailbox simulator\'s delivery, bounce and complaint; a send to the bounced address is suppressed; the rates go over SES\'s thresholds', async () => {
    const ids = await Promise.all(['success', 'bounce', 'complaint'].map(async (local) => (await send(`${local}@simulator.amazonses.com`)).body.email_id as string));
    await cloud.waitForActivity(ids[0], liveKey, (a) => a.current_status === 'delivered');
    await cloud.waitForActivity(ids[1], liveKey, (a) => a.current_status === 'bounced');
    await cloud.waitForActivity(ids[2], liveKey, (a) => a.current_status === 'complained');
    const again = await send('bounce@simulator.amazonses.com');
    await cloud.waitForActivity(again.body.email_id as string, liveKey, (a) => a.current_status === 'suppressed');

    const s = await statsWhen('', (x) => x.totals.suppressed >= 1 && x.totals.complained >= 1 && x.totals.delivered >= 2);
    expect(s.totals).toMatchObject({ sent: before.sent + 3, delivered: 2, bounced: 1, bounced_transient: 0, complained: 1, suppressed: 1, failed: 0 });
    // Today's bucket holds them all (a send just after midnight UTC could have its events in the next day's: none here).
    expect(s.buckets[29]).toMatchObject({ start: utcDay(Date.now()), sent: 3, bounced: 1, complained: 1, suppressed: 1 });
    expect(s.rates).toEqual({
      bounce_rate: 0.333333,
      complaint_rate: 0.333333,
      bounce_review_threshold: 0.05,
      bounce_pause_threshold: 0.1,
      complaint_review_threshold: 0.001,
      complaint_pause_threshold: 0.005,
      bounce_over_review: true,
      bounce_over_pause: true,
      complaint_over_review: true,
      complaint_over_pause: true,
    });
  });

  test('each event lands in the day and the hour it happened, opens and clicks once per mail, a transient bounce and a reject apart', async () => {
    const now = Date.now();
    const threeDaysAgo = new Date(Math.floor(now / DAY) * DAY - 3 * DAY + 10 * HOUR).toISOString();
    const fiveHoursAgo = new Date(now - 5 * HOUR).toISOString();
    const delivered = await quietMail();
    await feed(fixture('delivery', delivered.id, delivered.messageId, threeDaysAgo));
    const engaged = await quietMail();
    await feed(fixture('open', engaged.id, engaged.messageId, fiveHoursAgo), fixture('click', engaged.id, engaged.messageId, fiveHoursAgo));
    await feed(fixture('open', engaged.id, engaged.messageId, new Date(now - 4 * HOUR).toISOString()));
    const soft = await quietMail();
    await feed(fixture('bounce-transient', soft.id, soft.messageId, fiveHoursAgo));
    const rejected = await quietMail();
    await feed(fixture('reject', rejected.id, rejected.messageId, fiveHoursAgo));

    const days = await stats();
    expect(days.buckets[26]).toMatchObject({ start: utcDay(Date.parse(threeDaysAgo)), delivered: 1, sent: 0 });
    const hours = await stats('?interval=hour');
    expect(hours).toMatchObject({ interval: 'hour' });
    expect(hours.buckets).toHaveLength(24);
    expect(hours.buckets[23].start).toBe(utcHour(now));
    expect(hours.buckets[18]).toMatchObject({ start: utcHour(Date.parse(fiveHoursAgo)), opened: 1, clicked: 1, bounced_transient: 1, failed: 1, bounced: 0 });
    // The second open of the same mail is not a new opened mail.
    expect(hours.buckets[19].opened).toBe(0);
    expect(hours.totals).toMatchObject({ opened: 1, clicked: 1, bounced_transient: 1, failed: 1 });
    // A transient bounce is not in the bounce rate.
    expect(hours.totals.bounced).toBe(days.buckets[29].bounced);
  });

  test('since and until choose the buckets: a past window, rounded down to whole days or hours', async () => {
    const dayStart = Date.parse(utcDay(Date.now())) - 3 * DAY;
    const s = await stats(`?since=${new Date(dayStart + 7 * HOUR).toISOString()}&until=${new Date(dayStart + DAY + 3 * HOUR).toISOString()}`);
    expect(s.since).toBe(new Date(dayStart).toISOString());
    expect(s.until).toBe(new Date(dayStart + 2 * DAY).toISOString());
    expect(s.buckets.map((b) => b.start)).toEqual([new Date(dayStart).toISOString(), new Date(dayStart + DAY).toISOString()]);
    expect(s.totals).toMatchObject({ delivered: 1, sent: 0 });
    const longest = await stats(`?interval=hour&since=${new Date(Date.now() - 167 * HOUR).toISOString()}`);
    expect(longest.buckets).toHaveLength(168);
    const longestDays = await stats(`?since=${new Date(Date.now() - 89 * DAY).toISOString()}`);
    expect(longestDays.buckets).toHaveLength(90);
  });
});

describe('GET /v1/stats keeps projects and modes apart', () => {
  test('another project\'s mail is never counted', async () => {
    const mine = (await stats()).totals;
    const res = await cloud.api('POST', '/v1/send-email', { key: cloud.seed.live_key, body: sendBody(cloud, { recipient_email: 'success@simulator.amazonses.com' }) });
    await cloud.waitForActivity(res.body.email_id as string, cloud.seed.live_key, (a) => a.current_status === 'delivered');
    const theirs = await statsWhen('', (s) => s.totals.delivered >= 1, cloud.seed.live_key);
    expect(theirs.totals.sent).toBeGreaterThanOrEqual(1);
    expect((await stats()).totals).toEqual(mine);
  });

  test('the test key sees its test mail only, and the live figures leave it out', async () => {
    const live = (await stats()).totals;
    const res = await send('success@simulator.amazonses.com', testKey);
    await cloud.waitForActivity(res.body.email_id as string, testKey, (a) => a.current_status === 'delivered');
    const test = await statsWhen('', (s) => s.totals.delivered >= 1, testKey);
    expect(test).toMatchObject({ mode: 'test' });
    expect(test.totals).toMatchObject({ sent: 1, delivered: 1, bounced: 0, complained: 0 });
    expect((await stats()).totals).toEqual(live);
  });
});

describe('GET /v1/stats refuses what it cannot answer', () => {
  const refused = async (query: string, message: string | RegExp) => {
    const res = await cloud.api('GET', `/v1/stats${query}`, { key: liveKey });
    expect(res.status).toBe(400);
    expect(res.body.error).toMatch(message);
  };

  test('an interval other than day or hour', () => refused('?interval=week', /^interval must be day or hour$/));
  test('a timestamp that is not one', () => refused('?since=yesterday', /^since must be an ISO 8601 timestamp$/));
  test('since after until', () => refused('?since=2026-11-20T00:00:00Z&until=2026-11-19T00:00:00Z', /^since must not be after until$/));
  test('more than 168 hours', () =>
    refused(`?interval=hour&since=${new Date(Date.now() - 168 * HOUR).toISOString()}`, /^An hour series covers at most 168 hours \(asked: 169\); shorten the period or use interval=day$/));
  test('more than 90 days', () => refused(`?since=${new Date(Date.now() - 90 * DAY).toISOString()}`, /^A day series covers at most 90 days \(asked: 91\); shorten the period$/));
  test('without a key', async () => {
    expect((await cloud.api('GET', '/v1/stats', { key: null })).status).toBe(401);
  });
});
