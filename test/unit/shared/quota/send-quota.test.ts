import { GetCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { Config } from '../../../../shared/platform/core/config';
import type { Project } from '../../../../shared/platform/projects/project';
import { reserveMonthlySend } from '../../../../shared/mail-pipeline/quota/send-quota';
import { getMonthlyUsage, releaseSend, reserveSend, shardQuota } from '../../../../shared/mail-pipeline/quota/usage-repository';
import { MONTHLY_USAGE_SHARDS, monthlyUsageKey } from '../../../../shared/platform/store/keys';
import type { Db } from '../../../../shared/platform/store/client';

/**
 * A table fake that keeps usage counters in memory and evaluates the two conditions the counter
 * uses, so that the tests see what DynamoDB would answer.
 */
function counterTable() {
  const items = new Map<string, Record<string, unknown>>();
  const sent: UpdateCommand[] = [];
  const conditionFailed = () => Object.assign(new Error('The conditional request failed'), { name: 'ConditionalCheckFailedException' });
  const db = {
    tableName: 'mailroom',
    doc: {
      send: async (command: unknown) => {
        if (command instanceof GetCommand) {
          return { Item: items.get(JSON.stringify(command.input.Key)) };
        }
        if (!(command instanceof UpdateCommand)) throw new Error(`unexpected ${(command as object).constructor.name}`);
        sent.push(command);
        const { Key, ConditionExpression, ExpressionAttributeValues: values = {} } = command.input;
        const id = JSON.stringify(Key);
        const item = items.get(id) ?? { ...Key };
        const count = item.sent as number | undefined;
        if (ConditionExpression === 'attribute_not_exists(sent) OR sent < :quota' && !(count === undefined || count < (values[':quota'] as number))) throw conditionFailed();
        if (ConditionExpression === 'sent > :zero' && !(count !== undefined && count > 0)) throw conditionFailed();
        item.sent = (count ?? 0) + ((values[':one'] ?? values[':minus']) as number);
        if (values[':ttl'] !== undefined) item.ttl ??= values[':ttl'];
        items.set(id, item);
        return {};
      },
    },
  } as unknown as Db;
  return { db, items, sent };
}

const project = (monthly_quota?: Project['monthly_quota']): Project =>
  ({ id: 'p-1', organization_id: 'o', name: 'P', slug: 'p', created_at: '2026-01-01T00:00:00.000Z', live_key_hash: 'l', test_key_hash: 't', monthly_quota }) as Project;
const config = (DEFAULT_MONTHLY_QUOTA?: number) => ({ DEFAULT_MONTHLY_QUOTA }) as Config;
const clockAt = (iso: string) => {
  const clock = { at: new Date(iso), now: () => clock.at };
  return clock;
};

describe('reserveSend: the conditional counter', () => {
  it('lets exactly `quota` mails through, then refuses', async () => {
    const { db } = counterTable();
    const now = new Date('2026-11-10T10:00:00Z');
    const results = [];
    for (let i = 0; i < 5; i++) results.push((await reserveSend(db, 'p-1', '2026-11', 3, now)) !== undefined);
    expect(results).toEqual([true, true, true, false, false]);
    expect(await getMonthlyUsage(db, 'p-1', '2026-11')).toBe(3);
  });

  it('asks DynamoDB for one atomic ADD on one shard, guarded by its share of the quota, with a ttl about 400 days out', async () => {
    const { db, sent } = counterTable();
    const now = new Date('2026-11-10T10:00:00Z');
    expect(await reserveSend(db, 'p-1', '2026-11', 40, now, () => 0.99)).toBe(MONTHLY_USAGE_SHARDS - 1);
    expect(sent).toHaveLength(1);
    expect(sent[0].input).toMatchObject({
      TableName: 'mailroom',
      Key: monthlyUsageKey('p-1', '2026-11', MONTHLY_USAGE_SHARDS - 1),
      UpdateExpression: 'ADD sent :one SET #ttl = if_not_exists(#ttl, :ttl)',
      ConditionExpression: 'attribute_not_exists(sent) OR sent < :quota',
      ExpressionAttributeValues: { ':one': 1, ':quota': shardQuota(40, MONTHLY_USAGE_SHARDS - 1), ':ttl': Math.floor(now.getTime() / 1000) + 400 * 86_400 },
    });
  });

  it('splits the quota over the shards without losing or adding a unit', () => {
    for (const quota of [1, 3, 15, 16, 17, 40, 1000, 123_457]) {
      const shares = Array.from({ length: MONTHLY_USAGE_SHARDS }, (_, shard) => shardQuota(quota, shard));
      expect(shares.reduce((a, b) => a + b, 0)).toBe(quota);
      expect(Math.max(...shares) - Math.min(...shares)).toBeLessThanOrEqual(1);
    }
  });

  it('moves on to the next shard when one is full, so the whole quota is usable wherever mails land', async () => {
    const { db } = counterTable();
    const now = new Date('2026-11-10T10:00:00Z');
    const sameShardEveryTime = () => 0;
    const granted = [];
    for (let i = 0; i < 41; i++) granted.push(await reserveSend(db, 'p-1', '2026-11', 40, now, sameShardEveryTime));
    expect(granted.filter((g) => g !== undefined)).toHaveLength(40);
    expect(granted[40]).toBeUndefined();
    expect(await getMonthlyUsage(db, 'p-1', '2026-11')).toBe(40);
  });

  it('refuses every mail under a quota of 0 without writing anything', async () => {
    const { db, sent } = counterTable();
    expect(await reserveSend(db, 'p-1', '2026-11', 0, new Date())).toBeUndefined();
    expect(sent).toHaveLength(0);
  });

  it('passes on errors other than a failed condition', async () => {
    const db = { tableName: 't', doc: { send: async () => Promise.reject(Object.assign(new Error('slow down'), { name: 'ProvisionedThroughputExceededException' })) } } as unknown as Db;
    await expect(reserveSend(db, 'p-1', '2026-11', 3, new Date())).rejects.toThrow('slow down');
  });
});

describe('releaseSend', () => {
  it('gives a unit back, so the next mail fits again', async () => {
    const { db } = counterTable();
    const now = new Date('2026-11-10T10:00:00Z');
    const shard = await reserveSend(db, 'p-1', '2026-11', 1, now);
    expect(shard).toBeDefined();
    expect(await reserveSend(db, 'p-1', '2026-11', 1, now)).toBeUndefined();
    await releaseSend(db, 'p-1', '2026-11', shard as number);
    expect(await getMonthlyUsage(db, 'p-1', '2026-11')).toBe(0);
    expect(await reserveSend(db, 'p-1', '2026-11', 1, now)).toBeDefined();
  });

  it('never takes the counter below zero', async () => {
    const { db } = counterTable();
    await releaseSend(db, 'p-1', '2026-11', 0);
    expect(await getMonthlyUsage(db, 'p-1', '2026-11')).toBe(0);
  });
});

describe('reserveMonthlySend: the send worker step', () => {
  it('costs nothing for an unlimited project: no read, no write', async () => {
    const { db, sent, items } = counterTable();
    const clock = clockAt('2026-11-10T10:00:00Z');
    expect((await reserveMonthlySend({ db, clock, config: config() }, project())).ok).toBe(true);
    expect((await reserveMonthlySend({ db, clock, config: config(5) }, project('unlimited'))).ok).toBe(true);
    expect(sent).toHaveLength(0);
    expect(items.size).toBe(0);
  });

  it('counts against the deployment default when the project has no setting', async () => {
    const { db } = counterTable();
    const deps = { db, clock: clockAt('2026-11-10T10:00:00Z'), config: config(1) };
    expect((await reserveMonthlySend(deps, project())).ok).toBe(true);
    expect(await reserveMonthlySend(deps, project(null))).toEqual({ ok: false, message: 'Monthly quota of 1 email reached for 2026-11' });
  });

  it('starts afresh in a new UTC month', async () => {
    const { db } = counterTable();
    const clock = clockAt('2026-11-30T23:59:59Z');
    const deps = { db, clock, config: config() };
    expect((await reserveMonthlySend(deps, project(2))).ok).toBe(true);
    expect((await reserveMonthlySend(deps, project(2))).ok).toBe(true);
    expect(await reserveMonthlySend(deps, project(2))).toEqual({ ok: false, message: 'Monthly quota of 2 emails reached for 2026-11' });
    clock.at = new Date('2026-12-01T00:00:00Z');
    expect((await reserveMonthlySend(deps, project(2))).ok).toBe(true);
    expect(await getMonthlyUsage(db, 'p-1', '2026-11')).toBe(2);
    expect(await getMonthlyUsage(db, 'p-1', '2026-12')).toBe(1);
  });

  it('refunds the month it charged, even when the clock has crossed into the next one', async () => {
    const { db } = counterTable();
    const clock = clockAt('2026-11-30T23:59:59Z');
    const reservation = await reserveMonthlySend({ db, clock, config: config() }, project(10));
    if (!reservation.ok) throw new Error('expected a reservation');
    clock.at = new Date('2026-12-01T00:00:01Z');
    await reservation.release();
    expect(await getMonthlyUsage(db, 'p-1', '2026-11')).toBe(0);
    expect(await getMonthlyUsage(db, 'p-1', '2026-12')).toBe(0);
  });

  it('does not fail the send when the refund fails', async () => {
    const { db } = counterTable();
    const reservation = await reserveMonthlySend({ db, clock: clockAt('2026-11-10T10:00:00Z'), config: config() }, project(10));
    if (!reservation.ok) throw new Error('expected a reservation');
    (db.doc as unknown as { send: () => Promise<never> }).send = () => Promise.reject(new Error('network down'));
    await expect(reservation.release()).resolves.toBeUndefined();
  });
});
