import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { applyTransition, defineAggregate, defineLifecycle, expiryOf, transitionUpdate } from '../../../../shared/platform/store/aggregate';
import { aggregates } from '../../../../shared/platform/store/aggregates';
import { accessPatterns, accessPatternsDocument } from '../../../../shared/platform/store/aggregates/document';
import type { Db } from '../../../../shared/platform/store/client';
import * as keys from '../../../../shared/platform/store/keys';
import * as shards from '../../../../shared/platform/store/aggregates/shards';
import { EXPORT_RETENTION_DAYS } from '../../../../shared/marketing/campaign-reports/campaign-report';
import { IDEMPOTENCY_RETENTION_SECONDS } from '../../../../shared/platform/idempotency/idempotency-record';
import { WEBHOOK_DELIVERY_RETENTION_DAYS } from '../../../../shared/notifications/webhooks/delivery-log';
import { WEBHOOK_FAILURE_RETENTION_DAYS } from '../../../../shared/notifications/webhooks/failure-repository';

const job = defineAggregate({
  name: 'job',
  keys: { jobKey: (id: string) => ({ pk: `JOB#${id}`, sk: 'JOB' }) },
  ttl: [{ attribute: 'ttl', items: 'jobs', seconds: 3600 }],
  transitions: {
    start: { from: ['queued', 'paused'], to: 'running', set: ['started_at'], remove: ['paused_at'] },
  },
});

function dbAnswering(answer: () => Promise<unknown>): { db: Db; sent: unknown[] } {
  const sent: unknown[] = [];
  const doc = { send: (command: { input: unknown }) => (sent.push(command.input), answer()) } as unknown as DynamoDBDocumentClient;
  return { db: { doc, tableName: 't' }, sent };
}

describe('a declared transition', () => {
  test('becomes one conditional update: state IN (from...), SET the state and the given fields, REMOVE the declared ones', () => {
    const { db } = dbAnswering(async () => ({}));
    const input = transitionUpdate(db, job, 'start', job.keys.jobKey('1'), { started_at: '2030-01-01T00:00:00.000Z' }).input;
    expect(input.Key).toEqual({ pk: 'JOB#1', sk: 'JOB' });
    expect(input.ConditionExpression).toBe('#state IN (:from0, :from1)');
    expect(input.UpdateExpression).toBe('SET #f0 = :v0, #f1 = :v1 REMOVE #r0');
    expect(input.ExpressionAttributeNames).toEqual({ '#state': 'status', '#f0': 'started_at', '#f1': 'status', '#r0': 'paused_at' });
    expect(input.ExpressionAttributeValues).toEqual({ ':from0': 'queued', ':from1': 'paused', ':v0': '2030-01-01T00:00:00.000Z', ':v1': 'running' });
  });

  test('adds a further condition of its caller with AND', () => {
    const { db } = dbAnswering(async () => ({}));
    const input = transitionUpdate(db, job, 'start', job.keys.jobKey('1'), {}, { expression: '#owner = :owner', names: { '#owner': 'owner' }, values: { ':owner': 'me' } }).input;
    expect(input.ConditionExpression).toBe('#state IN (:from0, :from1) AND (#owner = :owner)');
    expect(input.ExpressionAttributeValues).toMatchObject({ ':owner': 'me' });
  });

  test('adds 1 to the fields it increments (a version)', () => {
    const versioned = defineAggregate({ name: 'v', keys: {}, transitions: { close: { from: ['open'], to: 'closed', increment: ['version'] } } });
    const input = transitionUpdate(dbAnswering(async () => ({})).db, versioned, 'close', { pk: 'V#1', sk: 'V' }).input;
    expect(input.UpdateExpression).toBe('SET #i0 = #i0 + :one, #f0 = :v0');
    expect(input.ExpressionAttributeNames).toMatchObject({ '#i0': 'version', '#f0': 'status' });
    expect(input.ExpressionAttributeValues).toMatchObject({ ':one': 1, ':v0': 'closed' });
  });

  test('refuses a field it does not declare (a programming error, not a lost race)', () => {
    const { db } = dbAnswering(async () => ({}));
    expect(() => transitionUpdate(db, job, 'start', job.keys.jobKey('1'), { finished_at: 'x' } as never)).toThrow('Transition job.start does not set finished_at');
  });

  test('answers true when written, false when the item was not in a from state, and throws other errors', async () => {
    await expect(applyTransition(dbAnswering(async () => ({})).db, job, 'start', job.keys.jobKey('1'))).resolves.toBe(true);
    const lost = Object.assign(new Error('The conditional request failed'), { name: 'ConditionalCheckFailedException' });
    await expect(applyTransition(dbAnswering(() => Promise.reject(lost)).db, job, 'start', job.keys.jobKey('1'))).resolves.toBe(false);
    const throttled = Object.assign(new Error('slow down'), { name: 'ProvisionedThroughputExceededException' });
    await expect(applyTransition(dbAnswering(() => Promise.reject(throttled)).db, job, 'start', job.keys.jobKey('1'))).rejects.toThrow('slow down');
  });
});

describe('an aggregate definition', () => {
  test('a transition must leave some state', () => {
    expect(() => defineAggregate({ name: 'x', keys: {}, transitions: { go: { from: [], to: 'b' } } })).toThrow('Transition x.go leaves no state');
  });

  test('a lifecycle declared apart becomes its transitions; it must be the same aggregate\'s', () => {
    const jobLifecycle = defineLifecycle({ name: 'job', stateField: 'phase', transitions: { stop: { from: ['running'], to: 'stopped' } } });
    const declared = defineAggregate({ name: 'job', keys: {}, lifecycle: jobLifecycle });
    expect(declared.transitions).toBe(jobLifecycle.transitions);
    expect(declared.stateField).toBe('phase');
    expect(() => defineAggregate({ name: 'task', keys: {}, lifecycle: jobLifecycle })).toThrow('Aggregate task has the lifecycle of job');
    expect(() => defineLifecycle({ name: 'x', transitions: { go: { from: [], to: 'b' } } })).toThrow('Transition x.go leaves no state');
  });

  test('its TTL gives the expiry of an item written now; items it does not declare do not expire', () => {
    expect(expiryOf(job, 'jobs', new Date('2030-01-01T00:00:00.000Z'))).toBe(Date.parse('2030-01-01T01:00:00.000Z') / 1000);
    expect(() => expiryOf(job, 'logs', new Date())).toThrow('job: its logs do not expire');
  });

  test('every stored thing has its access patterns, and nothing else does; their names are unique', () => {
    expect(Object.keys(accessPatterns).sort()).toEqual(Object.keys(aggregates).sort());
    for (const rows of Object.values(accessPatterns)) expect(rows.length).toBeGreaterThan(0);
    const names = Object.values(aggregates).map((a) => a.name);
    expect(new Set(names).size).toBe(names.length);
  });

  test('the lifetimes declared for items other gateways still expire themselves are theirs', () => {
    const lifetime = (a: keyof typeof aggregates, items: string) => aggregates[a].ttl.find((t) => t.items === items)?.seconds;
    expect(lifetime('webhookDelivery', 'failed deliveries')).toBe(WEBHOOK_FAILURE_RETENTION_DAYS * 86_400);
    expect(lifetime('webhookDelivery', 'attempts')).toBe(WEBHOOK_DELIVERY_RETENTION_DAYS * 86_400);
    expect(lifetime('campaign', 'outcome exports')).toBe(EXPORT_RETENTION_DAYS * 86_400);
    expect(lifetime('idempotencyRecord', 'records')).toBe(IDEMPOTENCY_RETENTION_SECONDS);
  });

  test('keys.ts is what the definitions generate: each key builder it exports is the one a definition holds, under the same name', () => {
    const declared = Object.values(aggregates).flatMap((a) => Object.entries(a.keys));
    const names = declared.map(([name]) => name);
    expect(new Set(names).size).toBe(names.length);
    const exported = Object.keys(keys).filter((name) => !(name in shards));
    expect(exported.sort()).toEqual([...names].sort());
    for (const [name, value] of declared) expect(keys[name as keyof typeof keys]).toBe(value);
  });

  test('docs/access-patterns.md is what the definitions generate (npx tsx scripts/access-patterns.ts)', () => {
    expect(readFileSync(join(__dirname, '../../../../docs/access-patterns.md'), 'utf8')).toBe(accessPatternsDocument());
  });
});
