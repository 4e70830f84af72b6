import { entryIdOf, errorKindOf, itemBytes, sanitizeExcerpt, sortKeyOfEntryId } from '../../../../shared/notifications/webhooks/delivery-log';
import { WEBHOOK_EVENT_NAMES } from '../../../../shared/notifications/webhooks/event-names';
import { webhookPayloadSchemas } from '../../../../shared/notifications/webhooks/webhook-payloads';

describe('the response excerpt', () => {
  test('keeps at most 512 bytes of the body as text', () => {
    expect(sanitizeExcerpt(Buffer.from('x'.repeat(600)))).toBe('x'.repeat(512));
    expect(sanitizeExcerpt(undefined)).toBe('');
  });

  test('drops a character the cut split instead of showing half of it', () => {
    // 'é' is 2 bytes: 511 bytes of 'a' and one 'é' cut after its first byte.
    expect(sanitizeExcerpt(Buffer.from(`${'a'.repeat(511)}é`))).toBe('a'.repeat(511));
    expect(sanitizeExcerpt(Buffer.from('€€'), 4)).toBe('€');
  });

  test('replaces control characters (but tab and newline) with spaces, and invalid UTF-8 with U+FFFD', () => {
    expect(sanitizeExcerpt(Buffer.from('a\u0000b\u001b[1mc\td\ne\u2028'))).toBe('a b [1mc\td\ne ');
    expect(sanitizeExcerpt(Buffer.from([0x61, 0xff, 0x62]))).toBe('a\ufffdb');
  });
});

describe('the kind of error of an attempt', () => {
  test.each([
    [{ ok: true, status: 204 }, null],
    [{ ok: false, status: 500, error: 'HTTP 500' }, 'http_status'],
    [{ ok: false, status: 301, error: 'Redirect (HTTP 301) not followed' }, 'redirect'],
    [{ ok: false, error: 'Timed out after 10000 ms' }, 'timeout'],
    [{ ok: false, error: 'Refusing to connect to a private address 10.0.0.1' }, 'address_refused'],
    [{ ok: false, error: 'Invalid URL' }, 'invalid_url'],
    [{ ok: false, error: 'Unsupported URL scheme ftp:' }, 'invalid_url'],
    [{ ok: false, error: 'ECONNREFUSED: connect ECONNREFUSED 127.0.0.1:9' }, 'network'],
  ])('%j is %s', (result, kind) => {
    expect(errorKindOf(result)).toBe(kind);
  });
});

describe('the size of an item as DynamoDB bills it', () => {
  test('counts attribute names and values', () => {
    expect(itemBytes({ pk: 'abc', n: 12345, b: true, x: null, bin: new Uint8Array(10) })).toBe(2 + 3 + 1 + 4 + 1 + 1 + 1 + 1 + 3 + 10);
    expect(itemBytes({ s: 'é' })).toBe(1 + 2);
  });
});

describe('the `event` filter', () => {
  test('knows every event a webhook carries, and only those', () => {
    expect([...WEBHOOK_EVENT_NAMES].sort()).toEqual(Object.keys(webhookPayloadSchemas).sort());
  });
});

describe('an entry id', () => {
  const sk = '2026-11-26T07:41:12.000Z#msg_5b0c8e4a-2f1d-4c3b-9a8e-7d6c5b4a3f21#02';

  test('names the entry\'s sort key and delivery id', () => {
    expect(sortKeyOfEntryId(entryIdOf(sk))).toEqual({ sk, deliveryId: 'msg_5b0c8e4a-2f1d-4c3b-9a8e-7d6c5b4a3f21' });
  });

  test('is nothing when it is not the encoding of a log sort key', () => {
    for (const id of ['msg_5b0c8e4a-2f1d-4c3b-9a8e-7d6c5b4a3f21', 'whd_', 'whd_!!', entryIdOf('PROJECT#p1'), entryIdOf(`${sk}#x`), entryIdOf('2026-11-26T07:41:12.000Z#a#b#02')]) {
      expect(sortKeyOfEntryId(id)).toBeUndefined();
    }
  });
});
