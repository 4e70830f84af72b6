import { Readable } from 'node:stream';
import { csvCell } from '../../../../shared/audience/imports/import-service';
import { csvRow, jsonRow } from '../../../../shared/audience/imports/import-rows';
import { ImportFileError } from '../../../../shared/audience/imports/lead-import';
import { readRows, type SourcePosition, type SourceRow } from '../../../../shared/audience/imports/row-source';

/** Every row of `text` read from `from`, the stream cut into small pieces as a network read would be. */
async function rowsOf(format: 'csv' | 'jsonl', text: string, from: SourcePosition = { offset: 0, rows: 0 }) {
  const bytes = Buffer.from(text).subarray(from.offset);
  const pieces = Array.from({ length: Math.ceil(bytes.length / 7) }, (_, i) => bytes.subarray(i * 7, i * 7 + 7));
  let header: { columns: string[]; end: number } | undefined;
  const rows: SourceRow[] = [];
  for await (const row of readRows(format, Readable.from(pieces), from, (columns, end) => (header = { columns, end }))) rows.push(row);
  return { rows, header };
}

const CSV = '\uFEFFEmail,Name,Tags\r\nann@example.com,"Ann, ""the first""",vip;news\r\n\r\nbad,Bob,\r\nzoë@example.com,"Zoë\nSecond line",\r\n';
const JSONL = '{"email":"ann@example.com"}\n\n{"email":"zoë@example.com","data":{"name":"Zoë"}}\r\nnot json\n{"email":"cat@example.com"}';

describe('reading rows with their byte offsets', () => {
  test.each([
    ['csv', CSV],
    ['jsonl', JSONL],
  ] as const)('%s: resuming at any row\'s end offset reads exactly the rows after it', async (format, text) => {
    const whole = await rowsOf(format, text);
    expect(whole.rows.at(-1)!.end).toBe(Buffer.byteLength(text));
    for (let i = 0; i < whole.rows.length; i++) {
      const rest = await rowsOf(format, text, { offset: whole.rows[i].end, rows: i + 1, columns: whole.header?.columns });
      expect(rest.rows.map((r) => r.row)).toEqual(whole.rows.slice(i + 1).map((r) => r.row));
    }
  });

  test('csv: the header is read once, lowercased; quoted commas, quotes and line breaks and multi-byte letters survive', async () => {
    const { rows, header } = await rowsOf('csv', CSV);
    expect(header).toEqual({ columns: ['email', 'name', 'tags'], end: Buffer.byteLength('\uFEFFEmail,Name,Tags\r\n') });
    expect(rows.map((r) => r.row)).toEqual([
      { row: 1, email: 'ann@example.com', input: { email: 'ann@example.com', segmentIds: [], data: { name: 'Ann, "the first"', _tags: ['vip', 'news'] } } },
      { row: 2, email: 'bad', error: 'email is not a valid email address' },
      { row: 3, email: 'zoë@example.com', input: { email: 'zoë@example.com', segmentIds: [], data: { name: 'Zoë\nSecond line' } } },
    ]);
  });

  test('jsonl: blank lines are skipped and not numbered; a line that is not JSON is a row error', async () => {
    const { rows } = await rowsOf('jsonl', JSONL);
    expect(rows.map((r) => [r.row.row, 'error' in r.row ? r.row.error : r.row.email])).toEqual([
      [1, 'ann@example.com'],
      [2, 'zoë@example.com'],
      [3, 'Line is not valid JSON'],
      [4, 'cat@example.com'],
    ]);
  });

  test.each([
    ['name,plan\nAnn,pro\n', 'The CSV header has no email column'],
    ['email,name,Email\n', 'The CSV header names the column email twice'],
    ['', 'The CSV file is empty: it needs a header row with an email column'],
  ])('csv %j fails the import as a whole: %s', async (text, message) => {
    await expect(rowsOf('csv', text)).rejects.toThrow(new ImportFileError(message));
  });
});

describe('rows as lead items', () => {
  test('segment ids, tags and the customer id have their own columns; other columns are data; empty cells are left out', () => {
    const columns = ['email', 'segment_ids', 'tags', 'storeplatform_customer_id', 'plan', 'city'];
    const row = csvRow(9, columns, [' Ann@Example.com ', '6F1C2B8E-0000-4000-8000-000000000001|6f1c2b8e-0000-4000-8000-000000000002', 'a, b', 'c-9', 'pro', '']);
    expect(row).toEqual({
      row: 9,
      email: 'ann@example.com',
      input: { email: 'ann@example.com', segmentIds: ['6f1c2b8e-0000-4000-8000-000000000001', '6f1c2b8e-0000-4000-8000-000000000002'], storeplatformCustomerId: 'c-9', data: { _tags: ['a', 'b'], plan: 'pro' } },
    });
    expect(csvRow(10, columns, ['ann@example.com', 'not-a-uuid'])).toEqual({ row: 10, email: 'ann@example.com', error: 'segment_ids must be an array of segment ids (uuids)' });
  });

  test('a JSON line is checked as a POST /v1/leads item', () => {
    expect(jsonRow(1, '{"email":"a@example.com","data":[]}')).toEqual({ row: 1, email: 'a@example.com', error: 'data must be an object' });
    expect(jsonRow(2, '[1]')).toEqual({ row: 2, email: '', error: 'Line must be a JSON object' });
  });
});

describe('the error report', () => {
  test('quotes cells with separators and defuses formulas', () => {
    expect(csvCell('plain')).toBe('plain');
    expect(csvCell('a,b')).toBe('"a,b"');
    expect(csvCell('say "hi"')).toBe('"say ""hi"""');
    expect(csvCell('=HYPERLINK("x")')).toBe('"\'=HYPERLINK(""x"")"');
  });
});
