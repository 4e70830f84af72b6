import { matchesProperties } from '../../../../shared/marketing/automations/triggers/property-match';
import type { PropertyCondition } from '../../../../shared/marketing/automations/definition';

const props = { plan: 'pro', total: 59.9, count: '12', gift: false, items: ['book', 'pen'], note: 'Thanks A LOT', empty: null };
const holds = (c: PropertyCondition) => matchesProperties([c], props);

describe('an event trigger\'s property conditions', () => {
  test('no conditions (or an empty list) match any properties', () => {
    expect(matchesProperties(undefined, {})).toBe(true);
    expect(matchesProperties([], props)).toBe(true);
  });

  test('every condition must hold', () => {
    expect(matchesProperties([{ property: 'plan', op: 'eq', value: 'pro' }, { property: 'total', op: 'gt', value: 50 }], props)).toBe(true);
    expect(matchesProperties([{ property: 'plan', op: 'eq', value: 'pro' }, { property: 'total', op: 'gt', value: 60 }], props)).toBe(false);
  });

  test.each<[PropertyCondition, boolean]>([
    [{ property: 'plan', op: 'eq', value: 'pro' }, true],
    [{ property: 'plan', op: 'eq', value: 'free' }, false],
    [{ property: 'plan', op: 'neq', value: 'free' }, true],
    [{ property: 'missing', op: 'neq', value: 'free' }, true],
    [{ property: 'total', op: 'gte', value: 59.9 }, true],
    [{ property: 'total', op: 'lt', value: 59.9 }, false],
    [{ property: 'count', op: 'lte', value: 12 }, true],
    [{ property: 'count', op: 'gt', value: 2 }, true],
    [{ property: 'note', op: 'contains', value: 'a lot' }, true],
    [{ property: 'items', op: 'contains', value: 'pen' }, true],
    [{ property: 'items', op: 'contains', value: 'ink' }, false],
    [{ property: 'plan', op: 'in', value: ['basic', 'pro'] }, true],
    [{ property: 'plan', op: 'in', value: ['basic'] }, false],
    [{ property: 'gift', op: 'eq', value: false }, true],
    [{ property: 'plan', op: 'exists' }, true],
    [{ property: 'empty', op: 'exists' }, false],
    [{ property: 'empty', op: 'not_exists' }, true],
    [{ property: 'missing', op: 'not_exists' }, true],
    [{ property: 'missing', op: 'eq', value: 'x' }, false],
    [{ property: 'missing', op: 'gt', value: 0 }, false],
    [{ property: 'plan', op: 'gt', value: 3 }, false],
  ])('%j -> %s (the audience filter\'s comparison)', (condition, expected) => {
    expect(holds(condition)).toBe(expected);
  });

  test('an inherited name is not a property', () => {
    expect(matchesProperties([{ property: 'toString', op: 'exists' }], {})).toBe(false);
    expect(matchesProperties([{ property: 'constructor', op: 'not_exists' }], {})).toBe(true);
  });
});
