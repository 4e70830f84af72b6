import { randomUUID } from 'node:crypto';
import type { SQSEvent } from 'aws-lambda';
import type { ProjectCaller } from '../../shared/platform/auth/authenticate';
import { services } from '../../composition/services';
import type { Queue } from '../../shared/platform/core/ports';
import { getProject } from '../../shared/platform/projects/project-repository';
import { claimScheduledSend } from '../../shared/mail-pipeline/scheduling/scheduled-send-repository';
import { createScheduledSend } from '../../shared/mail-pipeline/scheduling/scheduled-send-service';
import type { ScheduledSendContent } from '../../shared/mail-pipeline/mail/advanced-send-types';
import { CLOUD_TIMEOUT_MS, startTestCloud, type TestCloud } from './support/test-cloud';
import { asFunction } from '../../local/iam/function-roles';

let cloud: TestCloud;
let caller: ProjectCaller;

beforeAll(async () => {
  cloud = await startTestCloud();
  const project = await getProject(services().db, cloud.seed.project_id);
  caller = { kind: 'project', mode: 'live', project: project! };
}, CLOUD_TIMEOUT_MS);
afterAll(() => cloud?.stop());

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const inSeconds = (seconds: number) => new Date(Date.now() + seconds * 1000);
/** A recipient of its own per test, to find that test's mails in the shared outbox. */
const recipient = () => `sched-${randomUUID().slice(0, 8)}@example.com`;

const getSend = (id: string, key?: string) => cloud.api('GET', `/v1/scheduled-sends/${id}`, { key });
const patchSend = (id: string, body: unknown) => cloud.api('PATCH', `/v1/scheduled-sends/${id}`, { body });
const deleteSend = (id: string) => cloud.api('DELETE', `/v1/scheduled-sends/${id}`);

/** Schedules a send through `POST /send-email` (part 4.5) and returns its id. */
async function scheduleByApi(to: string, at: Date, over: Record<string, unknown> = {}): Promise<string> {
  const res = await cloud.api('POST', '/send-email', {
    body: { recipient: to, sender: cloud.seed.sender_email, subject: 'Scheduled hello', html: '<p>Hello later</p>', scheduled_at: at.toISOString(), ...over },
  });
  expect(res.status).toBe(200);
  expect(res.body).toMatchObject({ scheduled: true, scheduled_for: at.toISOString() });
  return res.body.scheduled_send_id as string;
}

const content = (to: string, over: Partial<ScheduledSendContent> = {}): ScheduledSendContent => ({
  recipient: to,
  sender: cloud.seed.sender_email,
  subject: 'Scheduled hello',
  html: '<p>Hello later</p>',
  emailType: 'transactional',
  customHeaders: {},
  references: [],
  ...over,
});

/** A queue that refuses fire messages: the send is stored as if the API's early enqueue had failed. */
function queueWithoutFire(): Queue {
  const real = services().queue;
  return {
    send: async (name, body, options) => {
      if (name === 'scheduled') throw new Error('enqueue refused by the test');
      return real.send(name, body, options);
    },
    sendBatch: async (name, bodies, options) => {
      if (name === 'scheduled') throw new Error('enqueue refused by the test');
      return real.sendBatch(name, bodies, options);
    },
    changeVisibility: (name, handle, seconds) => real.changeVisibility(name, handle, seconds),
  };
}

/** Mails in the SES outbox addressed to `to`. */
async function mailsTo(to: string) {
  return (await cloud.outbox()).filter((m) => m.destination.to.some((t) => t.includes(to)));
}

/** Polls the outbox until a mail to `to` is there; returns when it was first seen. */
async function waitForMail(to: string, timeoutMs = 15_000): Promise<number> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if ((await mailsTo(to)).length > 0) return Date.now();
    await sleep(150);
  }
  throw new Error(`No mail to ${to} within ${timeoutMs} ms`);
}

/** Polls GET until the send shows `status`. */
async function waitForStatus(id: string, status: string, timeoutMs = 15_000): Promise<Record<string, unknown>> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const res = await getSend(id);
    const data = res.body.data as Record<string, unknown> | undefined;
    if (data?.status === status) return data;
    if (Date.now() > deadline) throw new Error(`Scheduled send ${id} never became ${status}; last: ${JSON.stringify(res.body)}`);
    await sleep(150);
  }
}

/** An SQS event as the local poller (or Lambda) hands it to the worker. */
function fireEvent(records: { messageId: string; id: string; scheduledFor: string }[]): SQSEvent {
  return {
    Records: records.map((r) => ({
      messageId: r.messageId,
      receiptHandle: r.messageId,
      body: JSON.stringify({ v: 1, id: r.id, scheduled_for: r.scheduledFor }),
      attributes: {} as SQSEvent['Records'][number]['attributes'],
      messageAttributes: {},
      md5OfBody: '',
      eventSource: 'aws:sqs',
      eventSourceARN: 'arn:aws:sqs:us-east-1:000000000000:mailroom-scheduled',
      awsRegion: 'us-east-1',
    })),
  };
}

describe('GET /v1/scheduled-sends/:id', () => {
  test('answers the scheduled send resource (part 2) of the caller\'s project', async () => {
    const at = inSeconds(3600);
    const id = await scheduleByApi('reader@example.com', at, { timezone: 'Europe/Paris', scheduled_at: at.toISOString().replace('Z', '+00:00') });
    const res = await getSend(id);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      success: true,
      data: {
        id,
        status: 'pending',
        scheduled_for: at.toISOString(),
        timezone: 'UTC',
        recipient_email: 'reader@example.com',
        sender_email: cloud.seed.sender_email,
        subject: 'Scheduled hello',
        created_at: expect.any(String),
        updated_at: expect.any(String),
        email_id: null,
      },
    });
  });

  test.each([
    ['an unknown uuid', () => randomUUID()],
    ['an id that is not a uuid', () => 'not-a-uuid'],
  ])('%s is 404 NOT_FOUND', async (_name, id) => {
    const res = await getSend(id());
    expect(res.status).toBe(404);
    expect(res.body.error).toBe('NOT_FOUND');
  });

  test('another project\'s send is 404 NOT_FOUND, and cannot be moved or cancelled either', async () => {
    const other: ProjectCaller = { ...caller, project: { ...caller.project, id: randomUUID() } };
    const send = await createScheduledSend(services(), other, { content: content('x@example.com'), scheduledFor: inSeconds(3600), timezone: 'UTC' });
    expect((await getSend(send.id)).status).toBe(404);
    expect((await patchSend(send.id, { scheduled_at: inSeconds(7200).toISOString() })).status).toBe(404);
    expect((await deleteSend(send.id)).status).toBe(404);
  });

  test('needs a project key', async () => {
    expect((await getSend(randomUUID(), null as unknown as string)).status).toBe(401);
  });
});

describe('PATCH /v1/scheduled-sends/:id', () => {
  let id: string;
  beforeAll(async () => {
    id = await scheduleByApi('reader@example.com', inSeconds(3600));
  });

  test('a future ISO time moves the send: 200 with the updated resource, still pending', async () => {
    const at = inSeconds(7200);
    const local = new Date(at.getTime() + 9 * 3600_000).toISOString().replace('Z', '+09:00');
    const res = await patchSend(id, { scheduled_at: local });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ success: true, data: { id, status: 'pending', scheduled_for: at.toISOString(), timezone: 'UTC+9' } });
    expect((await getSend(id)).body.data).toMatchObject({ scheduled_for: at.toISOString() });
  });

  test.each([
    ['a past time', { scheduled_at: '2020-01-01T00:00:00Z' }, 'scheduled_at must be in the future'],
    ['garbage', { scheduled_at: 'next tuesday-ish' }, 'scheduled_at must be an ISO 8601 timestamp (for example 2030-01-31T09:00:00+01:00)'],
    ['a missing field', {}, 'scheduled_at is required'],
  ])('%s is 400 INVALID_INPUT', async (_name, body, message) => {
    const res = await patchSend(id, body);
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ error: 'INVALID_INPUT', message });
  });
});

describe('DELETE /v1/scheduled-sends/:id', () => {
  test('cancels a pending send: 200 {id, cancelled: true}; a second DELETE and a PATCH are 409 NOT_PENDING', async () => {
    const id = await scheduleByApi('reader@example.com', inSeconds(3600));
    const res = await deleteSend(id);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ id, cancelled: true });
    expect((await getSend(id)).body.data).toMatchObject({ status: 'cancelled', email_id: null });

    const again = await deleteSend(id);
    expect(again.status).toBe(409);
    expect(again.body).toMatchObject({ error: 'NOT_PENDING', status: 'cancelled' });
    const moved = await patchSend(id, { scheduled_at: inSeconds(7200).toISOString() });
    expect(moved.status).toBe(409);
    expect(moved.body).toMatchObject({ error: 'NOT_PENDING', status: 'cancelled' });
  });

  test('an unknown send is 404 NOT_FOUND', async () => {
    expect((await deleteSend(randomUUID())).status).toBe(404);
  });
});

describe('the state table of part 3: processing, sent, failed and cancelled refuse PATCH and DELETE', () => {
  async function expectNotPending(id: string, status: string) {
    const before = (await getSend(id)).body.data as Record<string, unknown>;
    const moved = await patchSend(id, { scheduled_at: inSeconds(7200).toISOString() });
    const cancelled = await deleteSend(id);
    expect([moved.status, moved.body.error, moved.body.status]).toEqual([409, 'NOT_PENDING', status]);
    expect([cancelled.status, cancelled.body.error, cancelled.body.status]).toEqual([409, 'NOT_PENDING', status]);
    expect((await getSend(id)).body.data).toEqual(before);
  }

  test('processing (claimed, its activity not written yet)', async () => {
    const send = await createScheduledSend(services(), caller, { content: content(recipient()), scheduledFor: inSeconds(3600), timezone: 'UTC' });
    expect(await claimScheduledSend(services().db, { id: send.id, scheduledFor: send.scheduled_for, claimedBy: 'test', now: new Date().toISOString() })).toBe(true);
    expect((await getSend(send.id)).body.data).toMatchObject({ status: 'processing', email_id: send.email_id });
    await expectNotPending(send.id, 'processing');
  });

  test('sent, and cancelled', async () => {
    const to = recipient();
    const sent = await scheduleByApi(to, inSeconds(1.5));
    await waitForStatus(sent, 'sent');
    await expectNotPending(sent, 'sent');

    const cancelled = await scheduleByApi(recipient(), inSeconds(3600));
    expect((await deleteSend(cancelled)).status).toBe(200);
    await expectNotPending(cancelled, 'cancelled');
  }, 30_000);

  test('failed: its template was deleted before its time; the reason is shown', async () => {
    const template = await cloud.api('POST', '/v1/templates', { body: { name: `Soon gone ${randomUUID()}`, subject: 'T', html: '<p>Hi {{name}}</p>' } });
    const templateId = (template.body.data as { id: string }).id;
    const id = await scheduleByApi(recipient(), inSeconds(2), { templateId, html: undefined });
    expect((await cloud.api('DELETE', `/v1/templates/${templateId}`)).status).toBe(200);
    const failed = await waitForStatus(id, 'failed');
    expect(failed.error).toContain(templateId);
    expect(failed.email_id).toBeNull();
    await expectNotPending(id, 'failed');
  }, 30_000);
});

describe('firing at the scheduled time', () => {
  test('a send 3 s ahead leaves on time, not before; its activity exists and GET then shows sent', async () => {
    const to = recipient();
    const at = inSeconds(3);
    const id = await scheduleByApi(to, at);
    await sleep(at.getTime() - Date.now() - 1200);
    expect(await mailsTo(to)).toHaveLength(0);
    const seen = await waitForMail(to);
    expect(seen).toBeGreaterThanOrEqual(at.getTime() - 1000);
    expect(seen - at.getTime()).toBeLessThan(4000);

    const data = await waitForStatus(id, 'sent');
    const activity = await cloud.waitForActivity(data.email_id as string, cloud.seed.live_key, (a) => a.current_status === 'delivered');
    expect(activity).toMatchObject({ recipient_primary: to, subject: 'Scheduled hello', sender_email: cloud.seed.sender_email });
  }, 30_000);

  test('a send scheduled with the test key goes out in test mode', async () => {
    const to = recipient();
    const res = await cloud.api('POST', '/send-email', {
      key: cloud.seed.test_key,
      body: { recipient: to, sender: cloud.seed.sender_email, subject: 'Test mode', html: '<p>t</p>', scheduled_at: inSeconds(1.5).toISOString() },
    });
    const data = await waitForStatus(res.body.scheduled_send_id as string, 'sent');
    const activity = await cloud.waitForActivity(data.email_id as string, cloud.seed.test_key, (a) => a.current_status === 'delivered');
    expect(activity.is_test).toBe(true);
  }, 30_000);

  test('a cancelled send never goes out', async () => {
    const to = recipient();
    const at = inSeconds(2);
    const id = await scheduleByApi(to, at);
    expect((await deleteSend(id)).status).toBe(200);
    // Its fire message, delayed to its time, comes and finds it cancelled.
    await cloud.settled();
    expect(Date.now()).toBeGreaterThanOrEqual(at.getTime());
    expect(await mailsTo(to)).toHaveLength(0);
    expect((await getSend(id)).body.data).toMatchObject({ status: 'cancelled' });
  }, 30_000);

  test('a rescheduled send leaves at its new time only (the old message is dropped)', async () => {
    const to = recipient();
    const id = await scheduleByApi(to, inSeconds(2));
    const later = inSeconds(7);
    expect((await patchSend(id, { scheduled_at: later.toISOString() })).status).toBe(200);
    await sleep(later.getTime() - Date.now() - 1500);
    expect(await mailsTo(to)).toHaveLength(0);
    const seen = await waitForMail(to);
    expect(seen).toBeGreaterThanOrEqual(later.getTime() - 1000);
    await waitForStatus(id, 'sent');
    // Nothing more is on its way: the first time's message was dropped, and no second mail follows.
    await cloud.settled();
    expect(await mailsTo(to)).toHaveLength(1);
  }, 30_000);

  test('two fire messages for one send (at once, then again, then a redelivery of the claimer) send exactly one mail', async () => {
    const handler = asFunction('scheduled-send-worker', (await import('../../functions/scheduled-send-worker/handler')).handler);
    const to = recipient();
    const send = await createScheduledSend({ ...services(), queue: queueWithoutFire() }, caller, { content: content(to), scheduledFor: inSeconds(0.5), timezone: 'UTC' });
    await sleep(600);
    const first = await handler(
      fireEvent([
        { messageId: 'm-1', id: send.id, scheduledFor: send.scheduled_for },
        { messageId: 'm-2', id: send.id, scheduledFor: send.scheduled_for },
      ]),
    );
    expect(first.batchItemFailures).toEqual([]);
    const again = await handler(fireEvent([{ messageId: 'm-3', id: send.id, scheduledFor: send.scheduled_for }]));
    expect(again.batchItemFailures).toEqual([]);
    await waitForMail(to);
    // A redelivery of whichever message claimed it re-runs the send, which is idempotent on email_id.
    for (const messageId of ['m-1', 'm-2']) await handler(fireEvent([{ messageId, id: send.id, scheduledFor: send.scheduled_for }]));
    await waitForStatus(send.id, 'sent');
    await cloud.settled();
    expect(await mailsTo(to)).toHaveLength(1);
  }, 30_000);

  test('the sweep picks up a send whose early enqueue failed, and it is sent', async () => {
    const sweep = asFunction('scheduled-sweep', (await import('../../functions/scheduled-sweep/handler')).handler);
    const to = recipient();
    const send = await createScheduledSend({ ...services(), queue: queueWithoutFire() }, caller, { content: content(to), scheduledFor: inSeconds(2), timezone: 'UTC' });
    await sleep(2500);
    expect(await mailsTo(to)).toHaveLength(0);
    const result = await sweep();
    expect(result.due).toBeGreaterThanOrEqual(1);
    expect(result.overdue).toBeGreaterThanOrEqual(1);
    await waitForMail(to);
    await waitForStatus(send.id, 'sent');
  }, 30_000);
});
