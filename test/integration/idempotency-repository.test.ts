import { GetCommand } from '@aws-sdk/lib-dynamodb';
import {
  claimIdempotencyKey,
  completeIdempotencyKey,
  releaseIdempotencyKey,
  type IdempotencyClaim,
} from '../../shared/platform/idempotency/idempotency-repository';
import { IDEMPOTENCY_LEASE_SECONDS, IDEMPOTENCY_RETENTION_SECONDS, type StoredResponse } from '../../shared/platform/idempotency/idempotency-record';
import { idempotencyKey } from '../../shared/platform/store/keys';
import { startTestTable, type TestTable } from './support/dynamodb-table';

/**
 * The claim, completion and release of an Idempotency-Key against DynamoDB Local: what the
 * conditional writes let through and what they refuse, not how the conditions are spelled.
 */
let table: TestTable;
beforeAll(async () => {
  table = await startTestTable();
}, 60_000);
afterAll(() => table?.stop());

const T0 = new Date('2025-03-01T12:00:00.000Z');
const later = (seconds: number) => new Date(T0.getTime() + seconds * 1000);
const response: StoredResponse = { status: 200, headers: { 'content-type': 'application/json; charset=utf-8' }, body: '{"email_id":"e-1"}' };

let n = 0;
/** A fresh key of project p-1, and the claims of two requests on it. */
function fresh(): { first: IdempotencyClaim; second: IdempotencyClaim } {
  const keyHash = String(++n).padStart(64, '0');
  return { first: { projectId: 'p-1', keyHash, token: 'tok-first' }, second: { projectId: 'p-1', keyHash, token: 'tok-second' } };
}

const claim = (c: IdempotencyClaim, at: Date, fingerprint = 'fp') => claimIdempotencyKey(table.db, { claim: c, fingerprint, now: at });
const stored = async (c: IdempotencyClaim) =>
  (await table.db.doc.send(new GetCommand({ TableName: table.db.tableName, Key: idempotencyKey(c.projectId, c.keyHash), ConsistentRead: true }))).Item;

describe('claimIdempotencyKey', () => {
  test('a free key is claimed: an in-progress record with a 60 s lease and a 24 h ttl', async () => {
    const { first } = fresh();
    expect(await claim(first, T0)).toEqual({ claimed: true });
    const epoch = T0.getTime() / 1000;
    expect(await stored(first)).toMatchObject({
      status: 'in_progress',
      token: 'tok-first',
      fingerprint: 'fp',
      lease_until: epoch + IDEMPOTENCY_LEASE_SECONDS,
      ttl: epoch + IDEMPOTENCY_RETENTION_SECONDS,
    });
  });

  test('a key in progress is refused to another request while the lease runs, with the record that holds it', async () => {
    const { first, second } = fresh();
    await claim(first, T0);
    const refused = await claim(second, later(IDEMPOTENCY_LEASE_SECONDS - 1));
    expect(refused).toMatchObject({ claimed: false, existing: { status: 'in_progress', token: 'tok-first', fingerprint: 'fp' } });
    expect((await stored(first))?.token).toBe('tok-first');
  });

  test('after the lease ran out the same request may take the key over (its holder died)', async () => {
    const { first, second } = fresh();
    await claim(first, T0);
    expect(await claim(second, later(IDEMPOTENCY_LEASE_SECONDS + 1))).toEqual({ claimed: true });
    expect((await stored(first))?.token).toBe('tok-second');
  });

  test('after the lease ran out another request body still may not take the key', async () => {
    const { first, second } = fresh();
    await claim(first, T0);
    expect(await claim(second, later(IDEMPOTENCY_LEASE_SECONDS + 1), 'another-body')).toMatchObject({ claimed: false, existing: { token: 'tok-first' } });
  });

  test('a completed record is refused with its stored answer, for the whole 24 h', async () => {
    const { first, second } = fresh();
    await claim(first, T0);
    await completeIdempotencyKey(table.db, { claim: first, response, now: later(1) });
    expect(await claim(second, later(IDEMPOTENCY_RETENTION_SECONDS - 1))).toMatchObject({ claimed: false, existing: { status: 'completed', response } });
  });

  test('a record past its ttl is free again, whatever it holds (DynamoDB deletes expired items late)', async () => {
    const { first, second } = fresh();
    await claim(first, T0);
    await completeIdempotencyKey(table.db, { claim: first, response, now: later(1) });
    expect(await claim(second, later(IDEMPOTENCY_RETENTION_SECONDS), 'another-body')).toEqual({ claimed: true });
    expect(await stored(second)).toMatchObject({ status: 'in_progress', token: 'tok-second', fingerprint: 'another-body' });
  });
});

describe('completeIdempotencyKey', () => {
  test('the holder stores its answer: completed, lease dropped, ttl kept from the first request', async () => {
    const { first } = fresh();
    await claim(first, T0);
    const ttl = (await stored(first))?.ttl;
    expect(await completeIdempotencyKey(table.db, { claim: first, response, now: later(5) })).toBe(true);
    const item = await stored(first);
    expect(item).toMatchObject({ status: 'completed', response: JSON.stringify(response), ttl, completed_at: later(5).toISOString() });
    expect(item).not.toHaveProperty('lease_until');
  });

  test('a request whose key was taken over cannot complete it, and the new holder keeps it', async () => {
    const { first, second } = fresh();
    await claim(first, T0);
    await claim(second, later(IDEMPOTENCY_LEASE_SECONDS + 1));
    expect(await completeIdempotencyKey(table.db, { claim: first, response, now: later(IDEMPOTENCY_LEASE_SECONDS + 2) })).toBe(false);
    expect(await stored(first)).toMatchObject({ status: 'in_progress', token: 'tok-second' });
  });

  test('a completed record is not completed twice', async () => {
    const { first } = fresh();
    await claim(first, T0);
    await completeIdempotencyKey(table.db, { claim: first, response, now: later(1) });
    const other: StoredResponse = { ...response, body: '{"email_id":"e-2"}' };
    expect(await completeIdempotencyKey(table.db, { claim: first, response: other, now: later(2) })).toBe(false);
    expect((await stored(first))?.response).toBe(JSON.stringify(response));
  });
});

describe('releaseIdempotencyKey', () => {
  test('the holder deletes its record, so that a retry runs again', async () => {
    const { first, second } = fresh();
    await claim(first, T0);
    await releaseIdempotencyKey(table.db, first);
    expect(await stored(first)).toBeUndefined();
    expect(await claim(second, later(1))).toEqual({ claimed: true });
  });

  test('a request whose key was taken over leaves the new holder its record, without an error', async () => {
    const { first, second } = fresh();
    await claim(first, T0);
    await claim(second, later(IDEMPOTENCY_LEASE_SECONDS + 1));
    await expect(releaseIdempotencyKey(table.db, first)).resolves.toBeUndefined();
    expect((await stored(first))?.token).toBe('tok-second');
  });
});
