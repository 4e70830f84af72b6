import { nestedDeeperThan } from '../../../shared/json-depth';

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
