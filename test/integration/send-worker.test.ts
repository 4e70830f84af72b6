import { GetQueueAttributesCommand, ReceiveMessageCommand, SQSClient } from '@aws-sdk/client-sqs';
import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { SQSEvent, SQSRecord } from 'aws-lambda';
import { handler } from '../../functions/send-worker/handler';
import { asFunction } from '../../local/iam/function-roles';
import { claimQueuedSend } from '../../shared/mail-pipeline/activity/activity-repository';
import { overrideServices, services } from '../../composition/services';
import { MailerError, type Mailer } from '../../shared/platform/core/ports';
import { updateProjectFields } from '../../shared/platform/projects/project-repository';
import { CLOUD_TIMEOUT_MS, drainEvents, sendBody, startTestCloud, storedActivity, type TestCloud } from './support/test-cloud';

let cloud: TestCloud;
let sqs: SQSClient;
let realMailer: Mailer;

beforeAll(async () => {
  // No pollers: these tests play the part of the Lambda event source themselves.
  cloud = await startTestCloud({ workers: false });
  sqs = new SQSClient({});
  realMailer = services().mailer;
}, CLOUD_TIMEOUT_MS);
afterAll(async () => {
  sqs?.destroy();
  await cloud?.stop();
});
afterEach(() => overrideServices({ mailer: realMailer }));

/** Accepts a send through the API and takes its message off the send queue. */
async function acceptAndReceive(overrides: Record<string, unknown> = {}): Promise<{ id: string; record: SQSRecord }> {
  const res = await cloud.api('POST', '/v1/send-email', { body: sendBody(cloud, overrides) });
  expect(res.status).toBe(200);
  const id = res.body.email_id as string;
  for (let i = 0; i < 20; i++) {
    const out = await sqs.send(new ReceiveMessageCommand({ QueueUrl: cloud.queueUrls.send, MaxNumberOfMessages: 10, WaitTimeSeconds: 1 }));
    const message = (out.Messages ?? []).find((m) => JSON.parse(m.Body ?? '{}').activity_id === id);
    if (message) return { id, record: toRecord(message.MessageId ?? id, message.Body ?? '') };
  }
  throw new Error(`No send message for ${id}`);
}

function toRecord(messageId: string, body: string): SQSRecord {
  return {
    messageId,
    receiptHandle: 'r',
    body,
    attributes: {} as SQSRecord['attributes'],
    messageAttributes: {},
    md5OfBody: '',
    eventSource: 'aws:sqs',
    eventSourceARN: 'arn:aws:sqs:us-east-1:000000000000:send',
    awsRegion: 'us-east-1',
  };
}

/** The send worker as Lambda runs it: as its own role. */
const sendWorker = asFunction('send-worker', handler);
const invoke = (...records: SQSRecord[]) => sendWorker({ Records: records } as SQSEvent) as Promise<{ batchItemFailures: { itemIdentifier: string }[] }>;

async function mailsFor(messageIdOrSubject: string): Promise<number> {
  return (await cloud.outbox()).filter((m) => m.subject === messageIdOrSubject).length;
}

describe('Send worker: a redelivered message never sends twice', () => {
  test('the same message delivered again after success sends nothing more', async () => {
    const subject = `redelivery-${Date.now()}`;
    const { id, record } = await acceptAndReceive({ subject });
    expect((await invoke(record)).batchItemFailures).toEqual([]);
    expect((await invoke({ ...record, messageId: 'again' })).batchItemFailures).toEqual([]);
    expect(await mailsFor(subject)).toBe(1);
    expect((await storedActivity(id))?.current_status).toBe('sent');
  });

  test('two deliveries of one message at the same moment send one mail; the loser comes back later', async () => {
    const subject = `concurrent-${Date.now()}`;
    const { id, record } = await acceptAndReceive({ subject });
    const results = await Promise.all([invoke({ ...record, messageId: 'a' }), invoke({ ...record, messageId: 'b' })]);
    expect(await mailsFor(subject)).toBe(1);
    // The loser either saw the mail already sent (done) or found the claim held (retry later): never a second send.
    const failures = results.flatMap((r) => r.batchItemFailures);
    expect(failures.length).toBeLessThanOrEqual(1);
    expect((await storedActivity(id))?.current_status).toBe('sent');
    // When it comes back, the mail is sent and the redelivery is simply acknowledged.
    expect((await invoke({ ...record, messageId: 'c' })).batchItemFailures).toEqual([]);
    expect(await mailsFor(subject)).toBe(1);
  });

  test('a claim held by a live delivery makes a duplicate wait; nothing is sent', async () => {
    const subject = `held-${Date.now()}`;
    const { id, record } = await acceptAndReceive({ subject });
    const now = Math.floor(Date.now() / 1000);
    await claimQueuedSend(services().db, { activityId: id, attempt: 1, leaseUntil: now + 60, now });
    const result = await invoke(record);
    expect(result.batchItemFailures).toEqual([{ itemIdentifier: record.messageId }]);
    expect(await mailsFor(subject)).toBe(0);
    expect((await storedActivity(id))?.current_status).toBe('queued');
  });

  test('a claim left by a crashed delivery is taken over once its lease runs out, and the mail goes out', async () => {
    const subject = `crashed-${Date.now()}`;
    const { id, record } = await acceptAndReceive({ subject });
    const now = Math.floor(Date.now() / 1000);
    await claimQueuedSend(services().db, { activityId: id, attempt: 1, leaseUntil: now - 1, now: now - 40 });
    expect((await invoke(record)).batchItemFailures).toEqual([]);
    expect(await mailsFor(subject)).toBe(1);
    expect((await storedActivity(id))?.current_status).toBe('sent');
  });
});

describe('Send worker: a crash right after SES accepted the mail', () => {
  test('dying between the sent write and email.send: the redelivery publishes email.send with the recorded sent_at (issue 19)', async () => {
    await updateProjectFields(services().db, cloud.seed.project_id, { webhook_url: 'http://127.0.0.1:9/hooks' });
    const { id, record } = await acceptAndReceive();
    const real = services().events;
    // The process dies at the publish that follows the `sent` write: the record says sent, no event left.
    overrideServices({ events: { publish: async () => Promise.reject(new Error('killed')) } });
    try {
      expect((await invoke(record)).batchItemFailures).toEqual([{ itemIdentifier: record.messageId }]);
    } finally {
      overrideServices({ events: real });
    }
    const stored = await storedActivity(id);
    expect(stored?.current_status).toBe('sent');
    // SQS hands the message out again: nothing is sent twice, and the event goes out once.
    expect((await invoke(record)).batchItemFailures).toEqual([]);
    await updateProjectFields(services().db, cloud.seed.project_id, { webhook_url: null });
    const events = (await drainEvents(cloud)).filter((e) => e.event === 'email.send' && e.data?.activity_id === id);
    expect(events).toHaveLength(1);
    expect(events[0].data?.event_timestamp).toBe(stored?.sent_at);
  });
});

describe('Send worker: the `sent` write fails after SES accepted the mail (issue 19, faults3)', () => {
  test('a throttled `sent` write does not send the mail again: the worker tries the write again and the mail is recorded `sent`', async () => {
    const subject = `sent-write-${Date.now()}`;
    const { id, record } = await acceptAndReceive({ subject });
    expect((await storedActivity(id))?.current_status).toBe('queued');
    const real = services();
    // DynamoDB refuses the `sent` transition (what gets past the SDK's own retries), once.
    let refused = 0;
    const send = async (command: unknown, ...rest: unknown[]) => {
      const values = command instanceof UpdateCommand ? command.input.ExpressionAttributeValues : undefined;
      // The activity's declared `send` transition: the one update that sets the status `sent`.
      if (refused === 0 && Object.values(values ?? {}).includes('sent')) {
        refused += 1;
        throw Object.assign(new Error('Rate of requests exceeds the allowed throughput.'), { name: 'ProvisionedThroughputExceededException', $fault: 'client', $metadata: {} });
      }
      return (real.db.doc.send as (...args: unknown[]) => Promise<unknown>)(command, ...rest);
    };
    const doc = new Proxy(real.db.doc, { get: (target, prop, receiver) => (prop === 'send' ? send : Reflect.get(target, prop, receiver)) });
    overrideServices({ db: { doc, tableName: real.db.tableName } });
    let first: Awaited<ReturnType<typeof invoke>> | undefined;
    try {
      first = await invoke(record);
    } finally {
      overrideServices({ db: real.db });
    }
    expect(refused).toBe(1);
    // Were the message redelivered after the claim's lease, the claim would be taken over and SES called again.
    overrideServices({ clock: { now: () => new Date(Date.now() + 120_000) } });
    try {
      await invoke({ ...record, messageId: 'after-the-lease' });
    } finally {
      overrideServices({ clock: real.clock });
    }
    expect(await mailsFor(subject)).toBe(1);
    expect((await storedActivity(id))?.current_status).toBe('sent');
    expect(first?.batchItemFailures).toEqual([]);
  });
});

describe('Send worker: temporary and permanent provider failures', () => {
  test('throttling schedules a delayed retry, marks the record retrying, and the retry sends', async () => {
    const subject = `throttled-${Date.now()}`;
    const { id, record } = await acceptAndReceive({ subject });
    const delayedBefore = await delayedCount();
    overrideServices({ mailer: { sendRaw: async () => Promise.reject(new MailerError('throttled', 'Maximum sending rate exceeded.')) } });
    expect((await invoke(record)).batchItemFailures).toEqual([]);
    expect((await storedActivity(id))?.current_status).toBe('retrying');
    expect(await delayedCount()).toBe(delayedBefore + 1);

    // The retry message (attempt 2) arrives after its delay; deliver it now with the real mailer.
    overrideServices({ mailer: realMailer });
    const retry = { ...JSON.parse(record.body), attempt: 2 };
    expect((await invoke(toRecord('retry', JSON.stringify(retry)))).batchItemFailures).toEqual([]);
    expect((await storedActivity(id))?.current_status).toBe('sent');
    expect(await mailsFor(subject)).toBe(1);
    // A late redelivery of attempt 1 is superseded and sends nothing.
    expect((await invoke(record)).batchItemFailures).toEqual([]);
    expect(await mailsFor(subject)).toBe(1);
  });

  test('throttling on the fifth attempt fails for good with rate_limit_exhausted', async () => {
    const { id, record } = await acceptAndReceive();
    overrideServices({ mailer: { sendRaw: async () => Promise.reject(new MailerError('throttled', 'Maximum sending rate exceeded.')) } });
    const last = { ...JSON.parse(record.body), attempt: 5 };
    await invoke(toRecord('last', JSON.stringify(last)));
    const activity = await storedActivity(id);
    expect(activity?.current_status).toBe('failed');
    expect(activity?.failure).toMatchObject({ error_code: 'rate_limit_exhausted', permanent: false });
  });

  test('a provider rejection fails at once with rejected, permanent', async () => {
    const { id, record } = await acceptAndReceive();
    overrideServices({ mailer: { sendRaw: async () => Promise.reject(new MailerError('rejected', 'Email address is not verified.')) } });
    await invoke(record);
    const activity = await storedActivity(id);
    expect(activity?.current_status).toBe('failed');
    expect(activity?.failure).toMatchObject({ error_code: 'rejected', permanent: true });
  });

  test('a failed record is final: a redelivery does not send it', async () => {
    const subject = `final-${Date.now()}`;
    const { id, record } = await acceptAndReceive({ subject });
    overrideServices({ mailer: { sendRaw: async () => Promise.reject(new MailerError('rejected', 'nope')) } });
    await invoke(record);
    overrideServices({ mailer: realMailer });
    const again = { ...JSON.parse(record.body), attempt: 2 };
    await invoke(toRecord('again', JSON.stringify(again)));
    expect((await storedActivity(id))?.current_status).toBe('failed');
    expect(await mailsFor(subject)).toBe(0);
  });

  test('an unreadable message is reported as a batch item failure (it ends in the DLQ)', async () => {
    const result = await invoke(toRecord('junk', '{"not":"a job"}'));
    expect(result.batchItemFailures).toEqual([{ itemIdentifier: 'junk' }]);
  });
});

describe('Unexpected errors (part 4.0, part 7)', () => {
  test('become a generic 500 with a request id and no stack', async () => {
    const real = services().db;
    // A table this instance has not read yet, so the failure hits the first read (the key lookup is cached per table).
    const broken = { tableName: `${real.tableName}-broken`, doc: { send: async () => Promise.reject(new Error('secret internal detail at line 42')) } };
    overrideServices({ db: broken as unknown as typeof real });
    try {
      const res = await cloud.api('POST', '/v1/send-email', { body: sendBody(cloud) });
      expect(res.status).toBe(500);
      expect(res.body.error).toBe('Internal server error');
      expect(typeof res.body.request_id).toBe('string');
      expect(JSON.stringify(res.body)).not.toContain('secret internal detail');
    } finally {
      overrideServices({ db: real });
    }
  });
});

async function delayedCount(): Promise<number> {
  const out = await sqs.send(new GetQueueAttributesCommand({ QueueUrl: cloud.queueUrls.send, AttributeNames: ['ApproximateNumberOfMessagesDelayed'] }));
  return Number(out.Attributes?.ApproximateNumberOfMessagesDelayed ?? 0);
}
