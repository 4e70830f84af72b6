import { matchesFilter, parseAudienceFilter } from '../../../shared/audience/leads/audience-filter';
import type { Lead } from '../../../shared/audience/leads/lead';
import { recipientOf } from '../../../shared/marketing/campaigns/variables';
import { csvRow, jsonRow, parseCsvHeader } from '../../../shared/audience/imports/import-rows';
import { ImportFileError } from '../../../shared/audience/imports/lead-import';
import { findReservedKey, ownValue, refuseReservedKeys, reservedKeyMessage } from '../../../shared/platform/core/reserved-keys';

// JSON.parse, as a request body is read: `__proto__` becomes an own key (an object literal would set the prototype).
const parsed = (json: string): unknown => JSON.parse(json);

describe('reserved keys: __proto__, constructor and prototype', () => {
  test.each([
    ['{"__proto__":{"a":1}}', '__proto__', '__proto__'],
    ['{"data":{"constructor":1}}', 'constructor', 'data.constructor'],
    ['{"recipients":[{"email":"a@x.io"},{"email":"b@x.io","metadata":{"x":{"prototype":true}}}]}', 'prototype', 'recipients[1].metadata.x.prototype'],
    ['[{"ok":1},[{"__proto__":null}]]', '__proto__', '[1][0].__proto__'],
  ])('%s: found, with its path', (json, key, path) => {
    expect(findReservedKey(parsed(json))).toEqual({ key, path });
  });

  test('values, nested arrays and look-alikes are no keys', () => {
    expect(findReservedKey(parsed('{"name":"constructor","tags":["__proto__"],"Constructor":1,"__proto":2,"proto":{"prototypes":3}}'))).toBeUndefined();
    expect(findReservedKey(null)).toBeUndefined();
    expect(findReservedKey('__proto__')).toBeUndefined();
  });

  test('any depth: the walk is iterative', () => {
    const deep = `${'{"a":'.repeat(10_000)}{"constructor":1}${'}'.repeat(10_000)}`;
    expect(findReservedKey(parsed(deep))?.key).toBe('constructor');
  });

  test('the refusal is a 400 that names the key and where it was', () => {
    expect(() => refuseReservedKeys(parsed('{"variables":{"__proto__":{"a":1}}}'))).toThrow(
      expect.objectContaining({ status: 400, message: 'Key "__proto__" (at variables.__proto__) is not allowed: __proto__, constructor and prototype are reserved' }),
    );
    expect(reservedKeyMessage({ key: 'constructor', path: 'constructor' })).toBe('Key "constructor" is not allowed: __proto__, constructor and prototype are reserved');
    expect(() => refuseReservedKeys(parsed('{"data":{"a":1}}'))).not.toThrow();
  });

  test('ownValue never reads an inherited member', () => {
    const data = { plan: 'pro' };
    expect(ownValue(data, 'plan')).toBe('pro');
    for (const name of ['constructor', 'toString', '__proto__', 'hasOwnProperty']) expect(ownValue(data, name)).toBeUndefined();
  });
});

describe('lead imports refuse them as the API does', () => {
  test('a JSON line with a reserved key anywhere fails that row, naming the key', () => {
    expect(jsonRow(4, '{"email":"a@example.com","data":{"__proto__":{"x":1}}}')).toEqual({
      row: 4,
      email: 'a@example.com',
      error: 'Key "__proto__" (at data.__proto__) is not allowed: __proto__, constructor and prototype are reserved',
    });
    expect(jsonRow(5, '{"email":"b@example.com","constructor":1}')).toMatchObject({ row: 5, error: expect.stringContaining('Key "constructor" is not allowed') });
  });

  test.each(['__proto__', 'Constructor', 'prototype'])('a CSV header with the column %s fails the file, naming the column', (column) => {
    expect(() => parseCsvHeader(['email', column])).toThrow(ImportFileError);
    expect(() => parseCsvHeader(['email', column])).toThrow(`The CSV header names the column ${column.toLowerCase()}: __proto__, constructor and prototype are reserved`);
  });

  test('other columns still make data fields', () => {
    expect(csvRow(2, parseCsvHeader(['email', 'plan']), ['a@example.com', 'pro'])).toMatchObject({ input: { email: 'a@example.com', data: { plan: 'pro' } } });
  });
});

describe('names a client gives as values read own data only', () => {
  const none = new Map();
  const lead = (data: Record<string, unknown>): Lead => ({
    id: 'lead-1',
    project_id: 'p1',
    email: 'ada@example.com',
    data,
    storeplatform_customer_id: null,
    created_at: '2026-01-01T00:00:00.000Z',
    updated_at: '2026-01-01T00:00:00.000Z',
    version: 1,
  });

  test.each(['constructor', 'toString', '__proto__'])('a segment condition on the attribute %s matches no lead with exists, every lead with not_exists', (attribute) => {
    const filter = (op: string) => parseAudienceFilter({ conditions: [{ attribute, op }] });
    expect(matchesFilter(filter('exists'), { email: 'a@example.com', data: { plan: 'pro' } }, none)).toBe(false);
    expect(matchesFilter(filter('not_exists'), { email: 'a@example.com', data: { plan: 'pro' } }, none)).toBe(true);
  });

  test('a campaign mapping to an Object member gives no value, and a default named like one still applies', () => {
    const recipient = recipientOf(lead({ name: 'Ada' }), { mappings: { greeting: 'constructor', other: 'toString' }, defaults: { greeting: 'Hello', toString: 'x' } });
    expect(recipient.data).toEqual({ name: 'Ada', greeting: 'Hello', toString: 'x', email: 'ada@example.com' });
  });
});
