import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { mockClient } from 'aws-sdk-client-mock';
import { COUNT_WINDOW } from '../../../../shared/platform/store/paging';
import { pageSuppressions } from '../../../../shared/mail-pipeline/suppression/suppression-repository';
import { readBoundedPage } from '../../../../shared/platform/store/bounded-list';
import { createDocumentClient, type Db } from '../../../../shared/platform/store/client';
import { entriesRead, serveQueries } from '../../support/fake-index';

const doc = mockClient(DynamoDBDocumentClient);
afterEach(() => doc.reset());
afterAll(() => doc.restore());

const db: Db = { doc: createDocumentClient(new DynamoDBClient({ region: 'us-east-1' })), tableName: 'mailroom' };
const SIZE = 5_000;
const emails = Array.from({ length: SIZE }, (_, n) => `u${String(n).padStart(5, '0')}@example.com`);
/** Every 5th address a complaint, every 50th unsubscribed, the rest bounces. */
const reasonOf = (n: number) => (n % 50 === 1 ? 'unsubscribe' : n % 5 === 0 ? 'complaint' : 'bounce');

function serveSuppressions() {
  const items = emails.map((email, n) => ({ pk: 'PROJECT#p-1', sk: `SUPP#${email}`, project_id: 'p-1', email, reason: reasonOf(n) }));
  return serveQueries(doc, items, { pkName: 'pk', skName: 'sk' });
}

describe('a one-partition list reads a bounded window (GET /v1/suppressions)', () => {
  test('a page reads its offset, its rows and at most COUNT_WINDOW entries after them', async () => {
    const recorded = serveSuppressions();
    const listed = await pageSuppressions(db, 'p-1', { page: 3, perPage: 50 }, undefined);
    expect(listed.entries.map((e) => e.email)).toEqual(emails.slice(100, 150));
    expect(entriesRead(recorded)).toBeLessThanOrEqual(150 + COUNT_WINDOW);
    expect(listed).toMatchObject({ total: 150 + COUNT_WINDOW, totalIsEstimate: true, nextCursor: expect.any(String) });
  });

  test('following next_cursor lists every entry once, in address order, each page within its bound', async () => {
    const recorded = serveSuppressions();
    const seen: string[] = [];
    let cursor: string | null = null;
    let total = 0;
    do {
      recorded.length = 0;
      const listed: Awaited<ReturnType<typeof pageSuppressions>> = await pageSuppressions(db, 'p-1', { page: 1, perPage: 200 }, cursor ?? undefined);
      expect(entriesRead(recorded)).toBeLessThanOrEqual(200 + COUNT_WINDOW);
      seen.push(...listed.entries.map((e) => e.email));
      ({ nextCursor: cursor, total } = listed);
    } while (cursor);
    expect(seen).toEqual(emails);
    expect(total).toBe(200); // the last page, counted from its own start: exact
  });

  test('a filter applied in DynamoDB reads at most ten entries per entry skipped or shown', async () => {
    const recorded = serveSuppressions();
    const listed = await pageSuppressions(db, 'p-1', { page: 2, perPage: 10, reason: 'complaint' }, undefined);
    expect(listed.entries.map((e) => e.email)).toEqual(emails.filter((_, n) => reasonOf(n) === 'complaint').slice(10, 20));
    expect(entriesRead(recorded)).toBeLessThanOrEqual(20 * 10 + COUNT_WINDOW);
    expect(listed.totalIsEstimate).toBe(true);
  });

  test('a sparse filter answers what its budget found and a cursor to read on from', async () => {
    const recorded = serveSuppressions();
    const sparse = emails.filter((_, n) => reasonOf(n) === 'unsubscribe');
    const seen: string[] = [];
    let cursor: string | null = null;
    do {
      recorded.length = 0;
      const listed: Awaited<ReturnType<typeof pageSuppressions>> = await pageSuppressions(db, 'p-1', { page: 1, perPage: 10, reason: 'unsubscribe' }, cursor ?? undefined);
      expect(entriesRead(recorded)).toBeLessThanOrEqual(10 * 10 + COUNT_WINDOW);
      seen.push(...listed.entries.map((e) => e.email));
      cursor = listed.nextCursor;
    } while (cursor);
    expect(seen).toEqual(sparse);
  });

  test('a search (an address prefix) narrows the key condition: it reads only the addresses that start so, and its cursor stays within them', async () => {
    const recorded = serveSuppressions();
    const listed = await pageSuppressions(db, 'p-1', { page: 1, perPage: 5, prefix: 'u0012' }, undefined);
    expect(listed.entries.map((e) => e.email)).toEqual(emails.slice(120, 125));
    expect(listed).toMatchObject({ total: 10, totalIsEstimate: false });
    expect(entriesRead(recorded)).toBeLessThanOrEqual(10);
    const next = await pageSuppressions(db, 'p-1', { page: 1, perPage: 5, prefix: 'u0012' }, listed.nextCursor ?? undefined);
    expect(next.entries.map((e) => e.email)).toEqual(emails.slice(125, 130));
    await expect(pageSuppressions(db, 'p-1', { page: 1, perPage: 5, prefix: 'u0013' }, listed.nextCursor ?? undefined)).rejects.toThrow('cursor is not valid for this list');
  });

  test('a short list answers its exact total and no cursor', async () => {
    serveQueries(doc, emails.slice(0, 7).map((email) => ({ pk: 'P', sk: `S#${email}` })), { pkName: 'pk', skName: 'sk' });
    const query = { TableName: 'mailroom', KeyConditionExpression: 'pk = :pk', ExpressionAttributeValues: { ':pk': 'P' } };
    const second = await readBoundedPage(db, query, { page: 2, perPage: 5 }, undefined);
    expect(second).toMatchObject({ total: 7, totalIsEstimate: false });
    expect(second.next).toBeUndefined();
    const first = await readBoundedPage(db, query, { page: 1, perPage: 5 }, undefined);
    expect(first).toMatchObject({ total: 7, totalIsEstimate: false, next: { pk: 'P', sk: `S#${emails[4]}` } });
  });

  test('a cursor naming another list is refused', async () => {
    serveSuppressions();
    const forged = Buffer.from(JSON.stringify({ pk: 'PROJECT#p-2', sk: 'SUPP#a@example.com' })).toString('base64url');
    await expect(pageSuppressions(db, 'p-1', { page: 1, perPage: 50 }, forged)).rejects.toThrow('cursor is not valid for this list');
  });
});
