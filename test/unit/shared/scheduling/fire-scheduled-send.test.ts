import { ConditionalCheckFailedException, DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient, GetCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { mockClient } from 'aws-sdk-client-mock';
import type { Services } from '../../../../composition/services';
import { AppError } from '../../../../shared/platform/core/errors';
import type { Queue } from '../../../../shared/platform/core/ports';
import { decideFire, fireScheduledSend, type SendNow } from '../../../../shared/mail-pipeline/scheduling/fire-scheduled-send';
import type { ScheduledSend } from '../../../../shared/mail-pipeline/scheduling/scheduled-send';
import type { FireMessage } from '../../../../shared/mail-pipeline/deferred-accept';
import { encodeContent } from '../../../../shared/mail-pipeline/scheduling/scheduled-send-repository';
import { createDocumentClient } from '../../../../shared/platform/store/client';
import { projectKey, scheduledSendKey } from '../../../../shared/platform/store/keys';

const sendNow = jest.fn() as jest.MockedFunction<SendNow>;

const DUE = '2030-01-01T09:00:00.000Z';
const DUE_MS = Date.parse(DUE);
const ID = '0b6f3c2e-8d1a-4c3e-9f00-000000000001';
const MESSAGE_ID = 'msg-1';
const message: FireMessage = { v: 1, id: ID, scheduled_for: DUE };

const stored = (overrides: Partial<ScheduledSend> = {}): ScheduledSend => ({
  id: ID,
  project_id: 'p-1',
  mode: 'test',
  status: 'pending',
  scheduled_for: DUE,
  timezone: 'UTC',
  recipient_email: 'reader@example.com',
  sender_email: 'hello@example.com',
  subject: 'Hi',
  content: { recipient: 'reader@example.com', sender: 'hello@example.com', subject: 'Hi', html: '<p>x</p>', emailType: 'transactional', customHeaders: {}, references: [] },
  email_id: '0b6f3c2e-8d1a-4c3e-9f00-0000000000e1',
  created_at: '2029-12-31T09:00:00.000Z',
  updated_at: '2029-12-31T09:00:00.000Z',
  version: 1,
  ...overrides,
});

describe('the fire decision table', () => {
  const now = new Date(DUE_MS);

  test('a send that no longer exists: dropped', () => {
    expect(decideFire(undefined, message, MESSAGE_ID, now)).toEqual({ action: 'drop', reason: 'missing' });
  });

  test.each(['cancelled', 'failed'] as const)('a %s send: dropped, never sent', (status) => {
    expect(decideFire(stored({ status }), message, MESSAGE_ID, now)).toEqual({ action: 'drop', reason: status });
  });

  test('a rescheduled send (the message names the old time): dropped, its own message will fire it', () => {
    const moved = stored({ scheduled_for: '2030-01-01T10:00:00.000Z' });
    expect(decideFire(moved, message, MESSAGE_ID, now)).toEqual({ action: 'drop', reason: 'rescheduled' });
    expect(decideFire(moved, message, MESSAGE_ID, new Date('2030-01-01T10:00:00.000Z'))).toEqual({ action: 'drop', reason: 'rescheduled' });
  });

  test('the same instant written differently is the same time', () => {
    expect(decideFire(stored(), { ...message, scheduled_for: '2030-01-01T10:00:00+01:00' }, MESSAGE_ID, now)).toEqual({ action: 'claim' });
  });

  test('a pending send at its time: claimed', () => {
    expect(decideFire(stored(), message, MESSAGE_ID, now)).toEqual({ action: 'claim' });
  });

  test('a pending send up to 1 s early still fires; overdue ones fire too', () => {
    expect(decideFire(stored(), message, MESSAGE_ID, new Date(DUE_MS - 1000))).toEqual({ action: 'claim' });
    expect(decideFire(stored(), message, MESSAGE_ID, new Date(DUE_MS + 3_600_000))).toEqual({ action: 'claim' });
  });

  test('a message more than 1 s early: re-queued for the rest of the wait', () => {
    expect(decideFire(stored(), message, MESSAGE_ID, new Date(DUE_MS - 1001))).toEqual({ action: 'requeue' });
  });

  test('processing, claimed by this very message (a redelivery after a crash): the send is finished', () => {
    expect(decideFire(stored({ status: 'processing', claimed_by: MESSAGE_ID }), message, MESSAGE_ID, now)).toEqual({ action: 'resume' });
  });

  test('processing, claimed by another message (a duplicate): dropped, the claimer sends', () => {
    expect(decideFire(stored({ status: 'processing', claimed_by: 'msg-0' }), message, MESSAGE_ID, now)).toEqual({ action: 'drop', reason: 'claimed-elsewhere' });
  });
});

describe('fireScheduledSend', () => {
  const doc = mockClient(DynamoDBDocumentClient);
  const sent: unknown[][] = [];
  const queue = { send: async (...args: unknown[]) => void sent.push(args) } as unknown as Queue;
  const project = { id: 'p-1', organization_id: 'o-1', name: 'Demo', slug: 'demo', created_at: DUE, live_key_hash: 'l', test_key_hash: 't' };
  let now = new Date(DUE_MS);
  const deps = () =>
    ({
      db: { doc: createDocumentClient(new DynamoDBClient({ region: 'us-east-1' })), tableName: 'mailroom' },
      queue,
      clock: { now: () => now },
    }) as unknown as Services;

  /** The item as DynamoDB holds it: keyed, content gzipped. */
  const asItem = (send: ScheduledSend) => ({ ...scheduledSendKey(ID), ...send, content: encodeContent(send.content) });
  const given = (item: ScheduledSend | undefined) => {
    doc.on(GetCommand, { Key: scheduledSendKey(ID) }).resolves({ Item: item && asItem(item) });
    doc.on(GetCommand, { Key: projectKey('p-1') }).resolves({ Item: { ...projectKey('p-1'), ...project } });
  };
  const updates = () => doc.commandCalls(UpdateCommand).map((c) => c.args[0].input);
  /** The fields an update sets (its declared transition's `#fN = :vN`), by name. */
  const setBy = (update: { ExpressionAttributeNames?: Record<string, string>; ExpressionAttributeValues?: Record<string, unknown> }) =>
    Object.fromEntries(Object.entries(update.ExpressionAttributeNames ?? {}).filter(([token]) => token.startsWith('#f')).map(([token, field]) => [field, update.ExpressionAttributeValues?.[`:v${token.slice(2)}`]]));

  beforeEach(() => {
    doc.reset();
    sendNow.mockReset();
    sent.length = 0;
    now = new Date(DUE_MS);
  });
  afterAll(() => doc.restore());

  // What the claim's condition lets through is tested against DynamoDB Local (test/integration/scheduled-send-repository.test.ts).
  test('reads strongly consistent, claims for the message time, then sends as the project in the stored mode', async () => {
    given(stored());
    doc.on(UpdateCommand).resolves({});
    await expect(fireScheduledSend(deps(), message, MESSAGE_ID, sendNow)).resolves.toEqual({ action: 'claim' });
    expect(doc.commandCalls(GetCommand)[0].args[0].input.ConsistentRead).toBe(true);
    const [claim] = updates();
    expect(claim.ExpressionAttributeValues).toMatchObject({ ':for': DUE });
    expect(setBy(claim)).toMatchObject({ claimed_by: MESSAGE_ID, status: 'processing' });
    expect(sendNow).toHaveBeenCalledTimes(1);
    const [, caller, content, activityId] = sendNow.mock.calls[0];
    expect(caller).toEqual({ kind: 'project', mode: 'test', project: expect.objectContaining({ id: 'p-1' }) });
    expect(content).toEqual(stored().content);
    expect(activityId).toBe(stored().email_id);
  });

  test('a lost claim (another message claimed first) sends nothing', async () => {
    given(stored());
    doc.on(UpdateCommand).rejects(new ConditionalCheckFailedException({ message: 'no', $metadata: {} }));
    doc.on(GetCommand, { Key: scheduledSendKey(ID) })
      .resolvesOnce({ Item: asItem(stored()) })
      .resolves({ Item: asItem(stored({ status: 'processing', claimed_by: 'msg-0' })) });
    await expect(fireScheduledSend(deps(), message, MESSAGE_ID, sendNow)).resolves.toEqual({ action: 'drop', reason: 'claimed-elsewhere' });
    expect(sendNow).not.toHaveBeenCalled();
  });

  test('a claim our own retried write already applied goes on to send', async () => {
    given(stored());
    doc.on(UpdateCommand).rejects(new ConditionalCheckFailedException({ message: 'no', $metadata: {} }));
    doc.on(GetCommand, { Key: scheduledSendKey(ID) })
      .resolvesOnce({ Item: asItem(stored()) })
      .resolves({ Item: asItem(stored({ status: 'processing', claimed_by: MESSAGE_ID })) });
    await fireScheduledSend(deps(), message, MESSAGE_ID, sendNow);
    expect(sendNow).toHaveBeenCalledTimes(1);
  });

  test('a redelivery of the claiming message sends again without a second claim (the send is idempotent on email_id)', async () => {
    given(stored({ status: 'processing', claimed_by: MESSAGE_ID }));
    await expect(fireScheduledSend(deps(), message, MESSAGE_ID, sendNow)).resolves.toEqual({ action: 'resume' });
    expect(updates()).toHaveLength(0);
    expect(sendNow).toHaveBeenCalledTimes(1);
  });

  test.each([
    ['cancelled', stored({ status: 'cancelled' })],
    ['missing', undefined],
  ])('a %s send: nothing written, nothing sent', async (_name, item) => {
    given(item);
    await fireScheduledSend(deps(), message, MESSAGE_ID, sendNow);
    expect(updates()).toHaveLength(0);
    expect(sendNow).not.toHaveBeenCalled();
  });

  test('early by more than 1 s: a fresh message for the remaining wait, nothing claimed', async () => {
    given(stored());
    now = new Date(DUE_MS - 12_500);
    await expect(fireScheduledSend(deps(), message, MESSAGE_ID, sendNow)).resolves.toEqual({ action: 'requeue' });
    expect(sent).toEqual([['scheduled', { v: 1, id: ID, scheduled_for: DUE }, { delaySeconds: 13 }]]);
    expect(updates()).toHaveLength(0);
    expect(sendNow).not.toHaveBeenCalled();
  });

  test('a permanent refusal (AppError below 500) marks the send failed with its message', async () => {
    given(stored());
    doc.on(UpdateCommand).resolves({});
    sendNow.mockRejectedValue(new AppError(404, 'Template not found with ID t-1'));
    await fireScheduledSend(deps(), message, MESSAGE_ID, sendNow);
    const failed = updates()[1];
    expect(setBy(failed)).toMatchObject({ status: 'failed', error: 'Template not found with ID t-1' });
  });

  test.each([
    ['a 5xx AppError', new AppError(502, 'Failed to process request')],
    ['any other error', new Error('DynamoDB is down')],
  ])('%s is thrown, for SQS to retry, and the send is not marked failed', async (_name, error) => {
    given(stored());
    doc.on(UpdateCommand).resolves({});
    sendNow.mockRejectedValue(error);
    await expect(fireScheduledSend(deps(), message, MESSAGE_ID, sendNow)).rejects.toBe(error);
    expect(updates()).toHaveLength(1);
  });

  test('a send whose project is gone fails with a reason instead of retrying forever', async () => {
    doc.on(GetCommand, { Key: scheduledSendKey(ID) }).resolves({ Item: asItem(stored()) });
    doc.on(GetCommand, { Key: projectKey('p-1') }).resolves({});
    doc.on(UpdateCommand).resolves({});
    await fireScheduledSend(deps(), message, MESSAGE_ID, sendNow);
    expect(sendNow).not.toHaveBeenCalled();
    expect(setBy(updates()[1])).toMatchObject({ status: 'failed', error: 'Project not found' });
  });
});
