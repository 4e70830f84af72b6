import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { BatchGetCommand, DynamoDBDocumentClient, type BatchGetCommandInput } from '@aws-sdk/lib-dynamodb';
import { mockClient } from 'aws-sdk-client-mock';
import { BatchGetIncompleteError, batchGetAll } from '../../../../shared/platform/store/batch-get';
import { createDocumentClient, type Db } from '../../../../shared/platform/store/client';
import { serveBatchGetThrottled } from '../../support/throttled-table';

const doc = mockClient(DynamoDBDocumentClient);
afterEach(() => {
  doc.reset();
  jest.useRealTimers();
  jest.restoreAllMocks();
});
afterAll(() => doc.restore());

const TABLE = 'mailroom';
const db: Db = { doc: createDocumentClient(new DynamoDBClient({ region: 'us-east-1' })), tableName: TABLE };
const key = (n: number) => ({ pk: `ITEM#${n}`, sk: 'ITEM' });
const keys = (count: number) => Array.from({ length: count }, (_, n) => key(n));
const keysOf = (input: BatchGetCommandInput) => (input.RequestItems?.[TABLE]?.Keys ?? []) as { pk: string; sk: string }[];
const requests = () => doc.commandCalls(BatchGetCommand).map((call) => keysOf(call.args[0].input));

/** A table holding items 0 to 299 that hands back the first `deferred` keys unprocessed on its first `times` answers. */
const throttledTable = (times: number, deferred: number) =>
  serveBatchGetThrottled(doc, TABLE, keys(300).map((k, n) => ({ ...k, n })), { times, deferred });

describe('batchGetAll: unprocessed keys', () => {
  test('keys handed back unprocessed twice are asked for again, only they, until every item is read', async () => {
    throttledTable(2, 3);
    const items = await batchGetAll(db, keys(10), { retries: 6, baseDelayMs: 1 });
    expect(items.map((i) => i.n).sort((a, b) => Number(a) - Number(b))).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9]);
    expect(requests()).toEqual([keys(10), keys(3), keys(3)]);
  });

  test('each retry waits, up to twice as long as the one before (exponential backoff with jitter)', async () => {
    jest.useFakeTimers();
    jest.spyOn(Math, 'random').mockReturnValue(1);
    throttledTable(2, 1);
    const done = batchGetAll(db, keys(2), { retries: 6, baseDelayMs: 100 });
    await jest.advanceTimersByTimeAsync(0);
    expect(requests()).toHaveLength(1);
    await jest.advanceTimersByTimeAsync(199);
    expect(requests()).toHaveLength(1);
    await jest.advanceTimersByTimeAsync(1);
    expect(requests()).toHaveLength(2);
    await jest.advanceTimersByTimeAsync(399);
    expect(requests()).toHaveLength(2);
    await jest.advanceTimersByTimeAsync(1);
    expect(requests()).toHaveLength(3);
    expect(await done).toHaveLength(2);
  });

  test('keys still unprocessed when the retries run out fail the read instead of answering fewer items', async () => {
    throttledTable(Infinity, 2);
    const read = batchGetAll(db, keys(5), { retries: 3, baseDelayMs: 1 });
    await expect(read).rejects.toBeInstanceOf(BatchGetIncompleteError);
    await expect(read).rejects.toThrow('BatchGet left 2 keys unprocessed after retrying');
    expect(requests()).toHaveLength(4);
  });
});

describe('batchGetAll: requests', () => {
  test('asks 100 keys per request', async () => {
    throttledTable(0, 0);
    const items = await batchGetAll(db, keys(250));
    expect(items).toHaveLength(250);
    expect(requests().map((r) => r.length)).toEqual([100, 100, 50]);
  });

  test('asks a key named twice only once (DynamoDB refuses duplicate keys in one request)', async () => {
    throttledTable(0, 0);
    await batchGetAll(db, [key(1), key(2), { ...key(1) }]);
    expect(requests()).toEqual([[key(1), key(2)]]);
  });

  test('no keys, no request', async () => {
    throttledTable(0, 0);
    expect(await batchGetAll(db, [])).toEqual([]);
    expect(requests()).toHaveLength(0);
  });

  test('absent keys yield nothing', async () => {
    doc.on(BatchGetCommand).resolves({ Responses: { [TABLE]: [] } });
    expect(await batchGetAll(db, keys(3))).toEqual([]);
  });
});
