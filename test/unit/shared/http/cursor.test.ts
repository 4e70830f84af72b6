import { decodeCursor, encodeCursor, isStringRecord } from '../../../../shared/platform/http/cursor';

/** List cursors: what a page's `next_cursor` names comes back through a check, or is a 400. */
const isShard = (v: unknown): v is { shard: number } => typeof v === 'object' && v !== null && Number.isInteger((v as { shard?: unknown }).shard);

describe('list cursors', () => {
  test('a position comes back as it went out', () => {
    expect(decodeCursor(encodeCursor({ shard: 3 }), isShard)).toEqual({ shard: 3 });
  });

  test.each([
    ['not base64url', '%%%'],
    ['not JSON', Buffer.from('{shard').toString('base64url')],
    ['refused by the check', encodeCursor({ shard: 'x' })],
    ['too long', 'a'.repeat(5000)],
  ])('%s: 400 cursor is not valid for this list', (_, cursor) => {
    expect(() => decodeCursor(cursor, isShard)).toThrow(expect.objectContaining({ status: 400, message: 'cursor is not valid for this list' }));
  });

  test('a start key has exactly the keys named, each a string', () => {
    expect(isStringRecord({ pk: 'a', sk: 'b' }, ['pk', 'sk'])).toBe(true);
    expect(isStringRecord({ pk: 'a', sk: 'b', extra: 'c' }, ['pk', 'sk'])).toBe(false);
    expect(isStringRecord({ pk: 'a', sk: 1 }, ['pk', 'sk'])).toBe(false);
    expect(isStringRecord(['a', 'b'], ['0', '1'])).toBe(false);
  });

  test('key values DynamoDB would refuse (a 500) are refused here: empty, too long, a lone surrogate, U+10FFFF', () => {
    for (const bad of ['', 'x'.repeat(1025), 'a\ud800b', 'a\u{10FFFF}']) expect(isStringRecord({ pk: bad }, ['pk'])).toBe(false);
    expect(isStringRecord({ pk: 'ann 😀@example.com' }, ['pk'])).toBe(true);
  });
});
