import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { BatchGetCommand, DynamoDBDocumentClient, type BatchGetCommandInput } from '@aws-sdk/lib-dynamodb';
import { mockClient } from 'aws-sdk-client-mock';
import { activityPosition, listActivity, type ActivityPage } from '../../../../shared/mail-pipeline/activity/activity-list';
import { COUNT_WINDOW } from '../../../../shared/platform/http/pagination';
import { createDocumentClient, type Db } from '../../../../shared/platform/store/client';
import { ACTIVITY_INDEX_SHARDS, activityKey } from '../../../../shared/platform/store/keys';
import { entriesRead, serveQueries } from '../../support/fake-index';

const doc = mockClient(DynamoDBDocumentClient);
afterEach(() => doc.reset());
afterAll(() => doc.restore());

const db: Db = { doc: createDocumentClient(new DynamoDBClient({ region: 'us-east-1' })), tableName: 'mailroom' };
const SIZE = 6_400; // 400 an index shard: far more than a page and its count window

/** Activity `n` of the project, created n seconds after a base time; every tenth sent from rare.example. */
const activity = (n: number) => {
  const id = `a-${String(n).padStart(5, '0')}`;
  const created = new Date(Date.UTC(2026, 0, 1) + n * 1000).toISOString();
  return { id, created, sender: n % 10 === 0 ? 'news@rare.example' : 'news@common.example' };
};
const all = Array.from({ length: SIZE }, (_, n) => activity(n));
const newestFirst = [...all].reverse().map((a) => a.id);

function serveProject() {
  const index = all.map((a, n) => ({ ...activityKey(a.id), gsi3pk: `ACTS#p-1#${n % ACTIVITY_INDEX_SHARDS}`, gsi3sk: `${a.created}#${a.id}` }));
  const recorded = serveQueries(doc, index, { pkName: 'gsi3pk', skName: 'gsi3sk' });
  const records = new Map(all.map((a) => [`ACT#${a.id}`, { ...activityKey(a.id), id: a.id, project_id: 'p-1', current_status: 'sent', sender_email: a.sender, created_at: a.created }]));
  let recordsRead = 0;
  doc.on(BatchGetCommand).callsFake((input: BatchGetCommandInput) => {
    const keys = (input.RequestItems?.mailroom?.Keys ?? []) as { pk: string }[];
    recordsRead += keys.length;
    return { Responses: { mailroom: keys.map((k) => records.get(k.pk)) } };
  });
  return { recorded, recordsRead: () => recordsRead };
}

describe('GET /v1/activity reads a bounded window, whatever the size of the project', () => {
  test('the first page reads its entries, a short read-ahead per shard, and at most the count window', async () => {
    const { recorded, recordsRead } = serveProject();
    const listed = await listActivity(db, 'p-1', {}, { page: 1, perPage: 50 });
    expect(listed.data.map((a) => a.id)).toEqual(newestFirst.slice(0, 50));
    expect(entriesRead(recorded)).toBeLessThanOrEqual(50 + ACTIVITY_INDEX_SHARDS * 10 + COUNT_WINDOW + ACTIVITY_INDEX_SHARDS);
    expect(recordsRead()).toBe(50);
    expect(listed.totalIsEstimate).toBe(true);
    expect(listed.total).toBeGreaterThanOrEqual(50 + COUNT_WINDOW - ACTIVITY_INDEX_SHARDS);
    expect(listed.total).toBeLessThan(SIZE);
    expect(listed.nextCursor).toEqual(expect.any(String));
  });

  test('following next_cursor lists every record once, newest first, each page within its bound', async () => {
    const { recorded } = serveProject();
    const seen: string[] = [];
    let cursor: string | null = null;
    let last: ActivityPage | undefined;
    do {
      recorded.length = 0;
      last = await listActivity(db, 'p-1', {}, { page: 1, perPage: 200 }, activityPosition(cursor ?? undefined));
      expect(entriesRead(recorded)).toBeLessThanOrEqual(200 + ACTIVITY_INDEX_SHARDS * 14 + 200 + COUNT_WINDOW + ACTIVITY_INDEX_SHARDS);
      seen.push(...last.data.map((a) => a.id));
      cursor = last.nextCursor;
    } while (cursor);
    expect(seen).toEqual(newestFirst);
    expect(last.totalIsEstimate).toBe(false);
    expect(last.total).toBe(last.data.length);
  });

  test('near the end of a list the total is exact and no cursor follows', async () => {
    serveProject();
    const since = activity(SIZE - 120).created;
    const first = await listActivity(db, 'p-1', { since }, { page: 1, perPage: 50 });
    expect(first).toMatchObject({ total: 120, totalIsEstimate: false });
    const third = await listActivity(db, 'p-1', { since }, { page: 3, perPage: 50 });
    expect(third.data.map((a) => a.id)).toEqual(newestFirst.slice(100, 120));
    expect(third).toMatchObject({ total: 120, totalIsEstimate: false, nextCursor: null });
  });

  test('a filter checked on the records reads at most ten records per row of the page, then answers a cursor', async () => {
    const { recordsRead } = serveProject();
    const seen: string[] = [];
    let cursor: string | null = null;
    let requests = 0;
    do {
      const before = recordsRead();
      const listed: ActivityPage = await listActivity(db, 'p-1', { senderDomain: 'rare.example' }, { page: 1, perPage: 20 }, activityPosition(cursor ?? undefined));
      expect(recordsRead() - before).toBeLessThanOrEqual(20 * 10);
      seen.push(...listed.data.map((a) => a.id));
      cursor = listed.nextCursor;
      requests++;
    } while (cursor && requests < 100);
    expect(seen).toEqual(newestFirst.filter((id) => Number(id.slice(2)) % 10 === 0));
  });
});
