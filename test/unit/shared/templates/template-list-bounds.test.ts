import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient, GetCommand } from '@aws-sdk/lib-dynamodb';
import { mockClient } from 'aws-sdk-client-mock';
import { COUNT_WINDOW } from '../../../../shared/platform/http/pagination';
import { createDocumentClient, type Db } from '../../../../shared/platform/store/client';
import { templateEntryKey, templateListIndex, templatesIndexedKey } from '../../../../shared/platform/store/keys';
import { pageTemplates } from '../../../../shared/mail-pipeline/templates/template-service';
import { entriesRead, serveQueries } from '../../support/fake-index';

const doc = mockClient(DynamoDBDocumentClient);
afterEach(() => doc.reset());
afterAll(() => doc.restore());

const db: Db = { doc: createDocumentClient(new DynamoDBClient({ region: 'us-east-1' })), tableName: 'mailroom' };
const SIZE = 3_000;
/** Template n was updated at second n: the newest is the last. Every 5th is an "Invoice", the rest "Welcome". */
const nameOf = (n: number) => (n % 5 === 0 ? `Invoice ${n}` : `Welcome ${n}`);
const updatedAt = (n: number) => new Date(Date.UTC(2026, 0, 1) + n * 1000).toISOString();
const newestFirst = Array.from({ length: SIZE }, (_, n) => SIZE - 1 - n);

/** The project's list entries (as the template writes leave them) behind a recording fake of gsi1, and the backfill marker present. */
function serveTemplates() {
  doc.on(GetCommand, { Key: templatesIndexedKey('p-1') }).resolves({ Item: templatesIndexedKey('p-1') });
  const entries = Array.from({ length: SIZE }, (_, n) => ({
    ...templateEntryKey('p-1', `t-${n}`),
    ...templateListIndex('p-1', updatedAt(n), n + 1),
    id: `t-${n}`,
    project_id: 'p-1',
    internal_id: n + 1,
    name: nameOf(n),
    name_lc: nameOf(n).toLowerCase(),
    version: 1,
    created_at: updatedAt(0),
    updated_at: updatedAt(n),
  }));
  return serveQueries(doc, entries, { pkName: 'gsi1pk', skName: 'gsi1sk' });
}

const numbersOf = (templates: { id: string }[]) => templates.map((t) => Number(t.id.slice(2)));

describe('GET /v1/templates reads a bounded window', () => {
  test('a page reads its offset, its rows and at most COUNT_WINDOW entries after them, newest update first, without HTML', async () => {
    const recorded = serveTemplates();
    const listed = await pageTemplates(db, 'p-1', { page: 3, perPage: 50 });
    expect(numbersOf(listed.templates)).toEqual(newestFirst.slice(100, 150));
    expect(listed.templates.every((t) => t.html === '' && !('name_lc' in t) && !('gsi1sk' in t))).toBe(true);
    expect(entriesRead(recorded)).toBeLessThanOrEqual(150 + COUNT_WINDOW);
    expect(listed).toMatchObject({ total: 150 + COUNT_WINDOW, totalIsEstimate: true, nextCursor: expect.any(String) });
  });

  test('following next_cursor lists every template once, each page within its bound', async () => {
    const recorded = serveTemplates();
    const seen: number[] = [];
    let cursor: string | null = null;
    do {
      recorded.length = 0;
      const listed: Awaited<ReturnType<typeof pageTemplates>> = await pageTemplates(db, 'p-1', { page: 1, perPage: 200, cursor: cursor ?? undefined });
      expect(entriesRead(recorded)).toBeLessThanOrEqual(200 + COUNT_WINDOW);
      seen.push(...numbersOf(listed.templates));
      cursor = listed.nextCursor;
    } while (cursor);
    expect(seen).toEqual(newestFirst);
  });

  test('search matches part of the name in any case and reads at most ten entries per template skipped or shown', async () => {
    const recorded = serveTemplates();
    const listed = await pageTemplates(db, 'p-1', { page: 2, perPage: 10, search: '  INVOICE ' });
    expect(numbersOf(listed.templates)).toEqual(newestFirst.filter((n) => n % 5 === 0).slice(10, 20));
    expect(entriesRead(recorded)).toBeLessThanOrEqual(20 * 10 + COUNT_WINDOW);
    expect(listed.totalIsEstimate).toBe(true);
  });

  test('a sparse search answers what its budget found and a cursor that reaches every match', async () => {
    const recorded = serveTemplates();
    const seen: number[] = [];
    let cursor: string | null = null;
    do {
      recorded.length = 0;
      const listed: Awaited<ReturnType<typeof pageTemplates>> = await pageTemplates(db, 'p-1', { page: 1, perPage: 5, search: 'invoice 1', cursor: cursor ?? undefined });
      expect(entriesRead(recorded)).toBeLessThanOrEqual(5 * 10 + COUNT_WINDOW);
      seen.push(...numbersOf(listed.templates));
      cursor = listed.nextCursor;
    } while (cursor);
    expect(seen).toEqual(newestFirst.filter((n) => nameOf(n).toLowerCase().includes('invoice 1')));
  });

  test('a cursor of another project\'s list is refused', async () => {
    serveTemplates();
    const other = Buffer.from(JSON.stringify({ pk: 'PROJECT#p-2', sk: 'TPLENTRY#x', gsi1pk: 'TPLS#p-2', gsi1sk: 'x' })).toString('base64url');
    await expect(pageTemplates(db, 'p-1', { page: 1, perPage: 10, cursor: other })).rejects.toMatchObject({ message: 'cursor is not valid for this list' });
  });
});
