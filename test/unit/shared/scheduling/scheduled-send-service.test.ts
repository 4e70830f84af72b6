import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient, PutCommand } from '@aws-sdk/lib-dynamodb';
import { mockClient } from 'aws-sdk-client-mock';
import type { ProjectCaller } from '../../../../shared/platform/auth/authenticate';
import type { Config } from '../../../../shared/platform/core/config';
import type { Queue } from '../../../../shared/platform/core/ports';
import { createScheduledSend, MAX_CONTENT_BYTES } from '../../../../shared/mail-pipeline/scheduling/scheduled-send-service';
import type { ScheduledSendContent } from '../../../../shared/mail-pipeline/mail/advanced-send-types';
import { createDocumentClient } from '../../../../shared/platform/store/client';
import { scheduledDueIndex } from '../../../../shared/platform/store/keys';

const doc = mockClient(DynamoDBDocumentClient);
afterEach(() => doc.reset());
afterAll(() => doc.restore());

const NOW = new Date('2030-01-01T09:00:00.000Z');
const caller = { kind: 'project', mode: 'test', project: { id: 'p-1' } } as unknown as ProjectCaller;
const content: ScheduledSendContent = { recipient: 'reader@example.com', sender: 'hello@example.com', subject: 'Hi', html: '<p>x</p>', emailType: 'transactional', customHeaders: {}, references: [] };

function deps(queueFails = false) {
  const sent: unknown[][] = [];
  const queue = {
    send: async (...args: unknown[]) => {
      if (queueFails) throw new Error('SQS down');
      sent.push(args);
    },
  } as unknown as Queue;
  return {
    sent,
    deps: {
      db: { doc: createDocumentClient(new DynamoDBClient({ region: 'us-east-1' })), tableName: 'mailroom' },
      queue,
      clock: { now: () => NOW },
      config: { ACTIVITY_RETENTION_DAYS: 90 } as Config,
    },
  };
}

describe('createScheduledSend', () => {
  beforeEach(() => doc.on(PutCommand).resolves({}));

  test('stores a pending send of the caller\'s project and mode, with a fresh email_id, in the due index, kept retention days after its time', async () => {
    const { deps: d } = deps();
    const scheduledFor = new Date('2030-01-02T09:00:00.000Z');
    const send = await createScheduledSend(d, caller, { content, scheduledFor, timezone: 'Europe/Paris' });
    expect(send).toMatchObject({
      project_id: 'p-1',
      mode: 'test',
      status: 'pending',
      scheduled_for: '2030-01-02T09:00:00.000Z',
      timezone: 'Europe/Paris',
      recipient_email: 'reader@example.com',
      sender_email: 'hello@example.com',
      subject: 'Hi',
      content,
      version: 1,
    });
    expect(send.email_id).toMatch(/^[0-9a-f-]{36}$/);
    expect(send.email_id).not.toBe(send.id);
    const item = doc.commandCalls(PutCommand)[0].args[0].input.Item!;
    expect(item).toMatchObject({ ...scheduledDueIndex(send.scheduled_for, send.id), ttl: Date.parse('2030-01-02T09:00:00.000Z') / 1000 + 90 * 86_400 });
  });

  test('a send due within the lookahead also gets its fire message at once', async () => {
    const { deps: d, sent } = deps();
    const send = await createScheduledSend(d, caller, { content, scheduledFor: new Date(NOW.getTime() + 10_000), timezone: 'UTC' });
    expect(sent).toEqual([['scheduled', { v: 1, id: send.id, scheduled_for: send.scheduled_for }, { delaySeconds: 10 }]]);
  });

  test('a later send waits for the sweep', async () => {
    const { deps: d, sent } = deps();
    await createScheduledSend(d, caller, { content, scheduledFor: new Date(NOW.getTime() + 76_000), timezone: 'UTC' });
    expect(sent).toEqual([]);
  });

  test('a failed early enqueue does not fail the request: the send is stored and the sweep will queue it', async () => {
    const { deps: d } = deps(true);
    await expect(createScheduledSend(d, caller, { content, scheduledFor: new Date(NOW.getTime() + 5_000), timezone: 'UTC' })).resolves.toMatchObject({ status: 'pending' });
    expect(doc.commandCalls(PutCommand)).toHaveLength(1);
  });

  test(`content over ${MAX_CONTENT_BYTES / 1000} KB is a 400, and nothing is stored`, async () => {
    const { deps: d } = deps();
    const big = { ...content, html: 'x'.repeat(MAX_CONTENT_BYTES) };
    await expect(createScheduledSend(d, caller, { content: big, scheduledFor: new Date('2030-02-01T00:00:00Z'), timezone: 'UTC' })).rejects.toMatchObject({
      status: 400,
      message: expect.stringContaining('too large'),
    });
    expect(doc.commandCalls(PutCommand)).toHaveLength(0);
  });
});
