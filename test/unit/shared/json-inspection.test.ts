import { inspectJson, nestedDeeperThan } from '../../../shared/platform/core/json-inspection';

/** The depth guard every JSON body passes before any recursive step (api-handler.ts). */
describe('how deep a parsed JSON value nests', () => {
  const objects = (levels: number) => JSON.parse(`${'{"a":'.repeat(levels)}1${'}'.repeat(levels)}`);
  const arrays = (levels: number) => JSON.parse(`${'['.repeat(levels)}${']'.repeat(levels)}`);

  test('allows exactly `max` levels of objects or arrays and refuses one more', () => {
    expect(nestedDeeperThan(objects(64), 64)).toBe(false);
    expect(nestedDeeperThan(objects(65), 64)).toBe(true);
    expect(nestedDeeperThan(arrays(64), 64)).toBe(false);
    expect(nestedDeeperThan(arrays(65), 64)).toBe(true);
  });

  test('reads 20,000 levels without overflowing the stack', () => {
    expect(nestedDeeperThan(objects(20_000), 64)).toBe(true);
    expect(nestedDeeperThan({ wide: Array.from({ length: 10_000 }, (_, i) => ({ i })) }, 64)).toBe(false);
  });

  test('scalars and null nest nothing', () => {
    for (const value of [null, 1, 'text', true]) expect(nestedDeeperThan(value, 0)).toBe(false);
  });
});

describe('one walk finds every refusal of a body', () => {
  test('a NUL in a string or a key, and the first reserved key in document order', () => {
    const found = inspectJson(JSON.parse('{"a":[{"b":"x\\u0000"}],"c":{"constructor":1},"d":{"__proto__":2}}'), 64);
    expect(found).toEqual({ tooDeep: false, hasNul: true, reserved: { key: 'constructor', path: 'c.constructor' } });
    expect(inspectJson(JSON.parse('{"k\\u0000":1}')).hasNul).toBe(true);
    expect(inspectJson('\u0000').hasNul).toBe(true);
    expect(inspectJson(JSON.parse('{"a":["b",{"c":1}]}'))).toEqual({ tooDeep: false, hasNul: false, reserved: undefined });
  });

  test('too deep wins: the walk stops at the first value past the bound', () => {
    const deep = JSON.parse(`{"__proto__":1,"x":${'['.repeat(70)}${']'.repeat(70)}}`);
    expect(inspectJson(deep, 64).tooDeep).toBe(true);
  });
});
