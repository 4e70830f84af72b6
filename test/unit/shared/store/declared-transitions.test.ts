import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient, UpdateCommand, type UpdateCommandInput } from '@aws-sdk/lib-dynamodb';
import { mockClient } from 'aws-sdk-client-mock';
import { transitionFromSendable } from '../../../../shared/mail-pipeline/activity/activity-repository';
import { cancelAcceptedBatch, cancelScheduledBatch, finishChunk, startScheduledBatch } from '../../../../shared/mail-pipeline/batches/batch-repository';
import { markPending, markRateLimited, moveCampaign, moveCampaignStatus, pauseByGuard } from '../../../../shared/marketing/campaigns/campaign-gateway';
import { cancelPendingScheduledSend, claimScheduledSend, markScheduledSendFailed } from '../../../../shared/mail-pipeline/scheduling/scheduled-send-repository';
import { transitionUpdate, type Aggregate, type Transition } from '../../../../shared/platform/store/aggregate';
import { activity, batch, campaign, scheduledSend } from '../../../../shared/platform/store/aggregates';
import { createDocumentClient, type Db } from '../../../../shared/platform/store/client';

/**
 * The gateways of sending, batches, scheduling and campaigns apply their declared transitions; each
 * repository call is captured and read back into the terms of a transition (from which states, to
 * which, which fields set, removed and incremented), and so is the declared transition's own
 * command: when the two differ, a gateway writes a move its declaration does not say.
 */
const doc = mockClient(DynamoDBDocumentClient);
beforeEach(() => doc.on(UpdateCommand).resolves({ Attributes: {} }));
afterEach(() => doc.reset());
afterAll(() => doc.restore());
const db: Db = { doc: createDocumentClient(new DynamoDBClient({ region: 'us-east-1' })), tableName: 'mailroom' };

/** What an update does to a state machine, read from its expressions. */
function effect(input: UpdateCommandInput, stateField: string) {
  const names = input.ExpressionAttributeNames ?? {};
  const values = input.ExpressionAttributeValues ?? {};
  const name = (token: string) => names[token] ?? token;
  const [, setPart = '', removePart = ''] = /^(?:SET (.*?))?(?: ?REMOVE (.*))?$/.exec(input.UpdateExpression!)!;
  const set: string[] = [];
  const increment: string[] = [];
  let to: unknown;
  for (const clause of setPart ? setPart.split(/,\s*(?![^()]*\))/) : []) {
    const [left, right] = clause.split(' = ').map((s) => s.trim());
    if (right === `${left} + :one`) increment.push(name(left));
    else if (name(left) === stateField) to = values[right];
    else set.push(name(left));
  }
  const remove = removePart ? removePart.split(',').map((s) => name(s.trim())) : [];
  const token = Object.keys(names).find((k) => names[k] === stateField) ?? stateField;
  const condition = input.ConditionExpression!;
  const inList = new RegExp(`${token} IN \\(([^)]*)\\)`).exec(condition);
  const equal = new RegExp(`${token} = (:\\w+)`).exec(condition);
  const from = inList ? inList[1].split(',').map((v) => values[v.trim()]) : equal ? [values[equal[1]]] : [];
  return { from: [...from].sort(), to, set: set.sort(), remove: remove.sort(), increment: increment.sort() };
}

/** The effect of a declared transition, given values for every field it sets. */
function declared(aggregate: Aggregate, name: string) {
  const transition = aggregate.transitions[name] as Transition;
  const values = Object.fromEntries((transition.set ?? []).map((f) => [f, `value of ${f}`]));
  return effect(transitionUpdate(db, aggregate, name, { pk: 'P', sk: 'S' }, values as never).input, aggregate.stateField);
}

/** The effect of the one update a repository call sends. */
async function written(call: () => Promise<unknown>, stateField: string) {
  await call();
  const calls = doc.commandCalls(UpdateCommand);
  expect(calls).toHaveLength(1);
  return effect(calls[0].args[0].input, stateField);
}

const record = { id: 'act-1', project_id: 'p-1', created_at: '2030-01-01T00:00:00.000Z' };
const now = '2030-01-01T00:00:00.000Z';

describe('the gateways write their declared transitions', () => {
  test.each([
    ['send', () => transitionFromSendable(db, record, 'sent', { message_id: 'm', sent_at: now, updated_at: now })],
    ['retry', () => transitionFromSendable(db, record, 'retrying', { updated_at: now })],
    ['suppress', () => transitionFromSendable(db, record, 'suppressed', { suppression_reason: 'bounce', updated_at: now })],
    ['fail', () => transitionFromSendable(db, record, 'failed', { failure: { reason: 'x' }, updated_at: now })],
    ['cancel', () => transitionFromSendable(db, record, 'cancelled', { updated_at: now })],
  ])('activity.%s', async (name, call) => {
    expect(await written(call, 'current_status')).toEqual(declared(activity, name));
  });

  test.each([
    ['claim', () => claimScheduledSend(db, { id: 's-1', scheduledFor: now, claimedBy: 'm-1', now })],
    ['cancel', () => cancelPendingScheduledSend(db, 's-1', 'p-1', now)],
    ['fail', () => markScheduledSendFailed(db, 's-1', 'boom', now)],
  ])('scheduledSend.%s', async (name, call) => {
    expect(await written(call, 'status')).toEqual(declared(scheduledSend, name));
  });

  test.each([
    ['start', () => startScheduledBatch(db, 'b-1', now, now)],
    ['cancelScheduled', () => cancelScheduledBatch(db, 'b-1', 'p-1', now)],
    ['cancelAccepted', () => cancelAcceptedBatch(db, 'b-1', now)],
  ])('batch.%s', async (name, call) => {
    expect(await written(call, 'status')).toEqual(declared(batch, name));
  });

  test('batch.finish, after the last chunk is recorded', async () => {
    doc.on(UpdateCommand).resolves({ Attributes: { chunks_done: new Set([0]), chunk_count: 1, status: 'sending' } });
    await finishChunk(db, 'b-1', 0, { queued: 1, suppressed: 0, cancelled: 0, failed: 0 }, now);
    const calls = doc.commandCalls(UpdateCommand);
    expect(calls).toHaveLength(2);
    expect(effect(calls[1].args[0].input, 'status')).toEqual(declared(batch, 'finish'));
  });

  test('the extra condition of a move (the time a fire message names, the owner) holds beside the state', async () => {
    await claimScheduledSend(db, { id: 's-1', scheduledFor: now, claimedBy: 'm-1', now });
    await cancelScheduledBatch(db, 'b-1', 'p-1', now);
    const [claim, cancel] = doc.commandCalls(UpdateCommand).map((c) => c.args[0].input);
    expect(claim.ConditionExpression).toBe('#state IN (:from0) AND (scheduled_for = :for)');
    expect(claim.ExpressionAttributeValues).toMatchObject({ ':for': now });
    expect(cancel.ConditionExpression).toBe('#state IN (:from0) AND (project_id = :p)');
    expect(cancel.ExpressionAttributeValues).toMatchObject({ ':p': 'p-1' });
  });

  test.each([
    ['prepare', () => markPending(db, 'c-1', { total_recipients: 1, total_batches: 1, current_batch: 0 }, now)],
    ['rateLimit', () => markRateLimited(db, 'c-1', now)],
    ['pause', () => pauseByGuard(db, 'c-1', { at: now } as never)],
    ['pause', () => moveCampaignStatus(db, 'c-1', { from: ['processing'], to: 'paused', now, set: { pause: { reason: 'manual', at: now } } })],
    ['resume', () => moveCampaignStatus(db, 'c-1', { from: ['paused'], to: 'processing', now, remove: ['pause'] })],
    ['resumeUnstarted', () => moveCampaignStatus(db, 'c-1', { from: ['paused'], to: 'pending', now, remove: ['pause'] })],
    ['cancel', () => moveCampaignStatus(db, 'c-1', { from: ['initializing', 'pending', 'processing', 'rate_limited', 'paused'], to: 'cancelled', now })],
    ['failInitializing', () => moveCampaignStatus(db, 'c-1', { from: ['initializing'], to: 'failed', now })],
    ['fail', () => moveCampaign(db, 'c-1', ['pending', 'processing', 'rate_limited'], 'failed', { failure_reason: 'x', updated_at: now })],
    ['complete', () => moveCampaign(db, 'c-1', ['pending', 'processing', 'rate_limited'], 'completed', { completed_at: now, updated_at: now, emails_sent: 1, emails_failed: 0, step: 2 })],
    ['failInitializing', () => moveCampaign(db, 'c-1', ['initializing'], 'failed', { updated_at: now })],
  ])('campaign.%s', async (name, call) => {
    expect(await written(call, 'status')).toEqual(declared(campaign, name));
  });
});

describe('the campaign gateway moves a campaign by its declared transitions only', () => {
  test('a move from the state the caller read is conditional on that state alone', async () => {
    await moveCampaignStatus(db, 'c-1', { from: ['rate_limited'], to: 'cancelled', now });
    const input = doc.commandCalls(UpdateCommand)[0].args[0].input;
    expect(input.ConditionExpression).toBe('#state IN (:from0, :from1, :from2, :from3, :from4) AND (#state IN (:observed0))');
    expect(input.ExpressionAttributeValues).toMatchObject({ ':observed0': 'rate_limited' });
    expect(input.ReturnValues).toBe('ALL_NEW');
  });

  test('a move nobody declared, or one that removes other fields than declared, is refused before any write', async () => {
    await expect(moveCampaignStatus(db, 'c-1', { from: ['completed'], to: 'processing', now })).rejects.toThrow('No campaign transition is declared from completed to processing');
    await expect(moveCampaignStatus(db, 'c-1', { from: ['paused'], to: 'processing', now, remove: ['step'] })).rejects.toThrow('Transition campaign.resume removes pause');
    expect(doc.commandCalls(UpdateCommand)).toHaveLength(0);
  });
});
