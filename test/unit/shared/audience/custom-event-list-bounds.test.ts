import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { BatchGetCommand, DynamoDBDocumentClient, type BatchGetCommandInput } from '@aws-sdk/lib-dynamodb';
import { mockClient } from 'aws-sdk-client-mock';
import { pageEvents } from '../../../../shared/audience/leads/custom-event-repository';
import { COUNT_WINDOW } from '../../../../shared/platform/http/pagination';
import { createDocumentClient, type Db } from '../../../../shared/platform/store/client';
import { LEAD_SHARDS, customEventIndexes, customEventKey } from '../../../../shared/platform/store/keys';
import { entriesRead, serveQueries } from '../../support/fake-index';

const doc = mockClient(DynamoDBDocumentClient);
afterEach(() => doc.reset());
afterAll(() => doc.restore());

const db: Db = { doc: createDocumentClient(new DynamoDBClient({ region: 'us-east-1' })), tableName: 'mailroom' };
const SIZE = 3_200;
const events = Array.from({ length: SIZE }, (_, n) => ({
  id: `e-${String(n).padStart(5, '0')}`,
  project_id: 'p-1',
  email: `u${n % 400}@example.com`,
  event: 'buy',
  timestamp: new Date(Date.UTC(2030, 0, 1) + n * 1000).toISOString(),
}));
const newestFirst = [...events].reverse().map((e) => e.id);

function serveEvents() {
  const items = events.map((e) => ({ ...customEventKey(e.project_id, e.email, e.timestamp, e.id), ...customEventIndexes(e.project_id, e), ...e }));
  const recorded = serveQueries(doc, items, { pkName: 'gsi5pk', skName: 'gsi5sk' });
  const byKey = new Map(items.map((i) => [`${i.pk}|${i.sk}`, i]));
  doc.on(BatchGetCommand).callsFake((input: BatchGetCommandInput) => ({
    Responses: { mailroom: ((input.RequestItems?.mailroom?.Keys ?? []) as { pk: string; sk: string }[]).map((k) => byKey.get(`${k.pk}|${k.sk}`)) },
  }));
  return recorded;
}

describe('GET /v1/events by name reads a bounded window across its shards', () => {
  test('a page reads its entries, a short read-ahead per shard and at most the count window', async () => {
    const recorded = serveEvents();
    const listed = await pageEvents(db, 'p-1', { event: 'buy' }, { page: 2, perPage: 50 }, undefined);
    expect(listed.events.map((e) => e.id)).toEqual(newestFirst.slice(50, 100));
    expect(entriesRead(recorded)).toBeLessThanOrEqual(100 + LEAD_SHARDS * 10 + COUNT_WINDOW + LEAD_SHARDS);
    expect(listed.totalIsEstimate).toBe(true);
    expect(listed.next).toEqual(expect.any(String));
  });

  test('following next lists every event once, newest first', async () => {
    serveEvents();
    const seen: string[] = [];
    let after: string | undefined;
    do {
      const listed = await pageEvents(db, 'p-1', { event: 'buy' }, { page: 1, perPage: 200 }, after);
      seen.push(...listed.events.map((e) => e.id));
      after = listed.next;
    } while (after);
    expect(seen).toEqual(newestFirst);
  });
});
