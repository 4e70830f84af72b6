import { matchesFilter, parseAudienceFilter, type EventCondition } from '../../../../shared/audience/leads/audience-filter';
import { dedupeLastWins } from '../../../../shared/audience/leads/lead-input';

const lead = (data: Record<string, unknown>, email = 'a@example.com') => ({ email, data });
const none = new Map();

describe('the audience filter language', () => {
  test('tags: any, all and none', () => {
    const f = parseAudienceFilter({ conditions: [{ tags: { any: ['a', 'b'], all: ['c'], none: ['x'] } }] });
    expect(matchesFilter(f, lead({ _tags: ['b', 'c'] }), none)).toBe(true);
    expect(matchesFilter(f, lead({ _tags: ['b'] }), none)).toBe(false);
    expect(matchesFilter(f, lead({ _tags: ['a', 'c', 'x'] }), none)).toBe(false);
  });

  test('attribute comparisons: numbers as numbers, missing attributes match only not_exists and neq', () => {
    const f = (op: string, value?: unknown) => parseAudienceFilter({ conditions: [{ attribute: 'n', op, value }] });
    expect(matchesFilter(f('gt', 9), lead({ n: 10 }), none)).toBe(true);
    expect(matchesFilter(f('gt', 9), lead({ n: '10' }), none)).toBe(true);
    expect(matchesFilter(f('in', ['x', 'y']), lead({ n: 'y' }), none)).toBe(true);
    expect(matchesFilter(f('contains', 'OO'), lead({ n: 'foo' }), none)).toBe(true);
    expect(matchesFilter(f('eq', 1), lead({}), none)).toBe(false);
    expect(matchesFilter(f('neq', 1), lead({}), none)).toBe(true);
    expect(matchesFilter(f('not_exists'), lead({}), none)).toBe(true);
  });

  test('event done or not done, answered per condition; match any', () => {
    const f = parseAudienceFilter({ match: 'any', conditions: [{ event: 'buy', done: true, within_days: 7 }, { attribute: 'vip', op: 'eq', value: true }] });
    const answers = new Map([[f.conditions[0] as EventCondition, new Set(['b@example.com'])]]);
    expect(matchesFilter(f, lead({}, 'b@example.com'), answers)).toBe(true);
    expect(matchesFilter(f, lead({ vip: true }), answers)).toBe(true);
    expect(matchesFilter(f, lead({}), answers)).toBe(false);
  });

  test.each([
    [null, 'filter must be an object'],
    [{ conditions: [] }, 'filter.conditions must be a non-empty array'],
    [{ match: 'some', conditions: [{ tags: { any: ['a'] } }] }, 'filter.match must be "all" or "any"'],
    [{ conditions: [{ tags: {} }] }, 'filter.conditions[0].tags must be an object with any, all or none'],
    [{ conditions: [{ event: 'x', done: 'yes' }] }, 'filter.conditions[0].done must be true or false'],
    [{ conditions: [{ event: 'x', done: true, within_days: 0 }] }, 'filter.conditions[0].within_days must be an integer from 1 to 3650'],
    [{ conditions: [{ attribute: 'a', op: 'gt', value: true }] }, 'filter.conditions[0].value must be a number or string for op "gt"'],
    [{ conditions: [{ other: 1 }] }, 'filter.conditions[0] must have tags, attribute or event'],
  ])('%j is refused: %s', (filter, message) => {
    expect(() => parseAudienceFilter(filter)).toThrow(message);
  });
});

describe('bulk upsert deduplication', () => {
  test('keeps the last occurrence of each email', () => {
    const rows = [{ email: 'a@x.io', data: { v: 1 }, segmentIds: [] }, { email: 'b@x.io', segmentIds: [] }, { email: 'a@x.io', data: { v: 2 }, segmentIds: [] }];
    expect(dedupeLastWins(rows)).toEqual([rows[1], rows[2]]);
  });
});

describe('lead data and event properties', () => {
  test('a value nested thousands deep is a 400, not a stack overflow', async () => {
    const { parseData } = await import('../../../../shared/audience/leads/lead-input');
    const { parseEventInput } = await import('../../../../shared/audience/leads/custom-event');
    const deep = JSON.parse(`${'['.repeat(20000)}${']'.repeat(20000)}`);
    expect(() => parseData({ a: deep }, 'data')).toThrow('data is nested more than 16 levels deep');
    expect(() => parseEventInput({ email: 'a@example.com', event: 'x', properties: { a: deep } })).toThrow('properties is nested more than 16 levels deep');
    expect(() => parseData({ a: 1e200 }, 'data')).toThrow('data holds a number out of range');
  });
});
