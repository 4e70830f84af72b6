import { capitalize, defaultHelper, formatCurrency, formatDate, lowercase, multiply, toNumber, uppercase } from '../../../../shared/mail-pipeline/templates/helpers';

describe('toNumber', () => {
  test.each([
    [3, 3],
    ['2.5', 2.5],
    [' 4 ', 4],
    ['', undefined],
    ['abc', undefined],
    [NaN, undefined],
    [Infinity, undefined],
    [null, undefined],
    [undefined, undefined],
    [{}, undefined],
  ])('%p -> %p', (input, expected) => expect(toNumber(input)).toBe(expected));
});

describe('default', () => {
  test('keeps a present value, including 0 and false', () => {
    expect(defaultHelper('Ann', 'x')).toBe('Ann');
    expect(defaultHelper(0, 'x')).toBe(0);
    expect(defaultHelper(false, 'x')).toBe(false);
  });
  test.each([undefined, null, ''])('%p falls back', (value) => expect(defaultHelper(value, 'friend')).toBe('friend'));
  test('no fallback (only the options object) gives an empty string', () => {
    expect(defaultHelper(undefined, { hash: {}, data: {} })).toBe('');
  });
});

describe('formatCurrency', () => {
  test('formats in en-US', () => {
    expect(formatCurrency(1234.5, 'USD')).toBe('$1,234.50');
    expect(formatCurrency('12.5', 'eur')).toBe('€12.50');
    expect(formatCurrency(1000, 'JPY')).toBe('¥1,000');
  });
  test('USD when no code is given', () => expect(formatCurrency(3, { hash: {}, data: {} })).toBe('$3.00'));
  test.each([undefined, null, 'abc', '', {}, NaN])('non-number %p renders empty', (value) => expect(formatCurrency(value, 'USD')).toBe(''));
  test('unknown or malformed code falls back to "<number> <CODE>" without throwing', () => {
    expect(formatCurrency(12.5, 'XYZ')).toBe('12.50 XYZ');
    expect(formatCurrency(12.5, 'dollars')).toBe('12.50 DOLLARS');
  });
});

describe('formatDate', () => {
  const iso = '2026-03-09T14:30:00Z';
  test('short is the default style', () => {
    expect(formatDate(iso)).toBe('3/9/2026');
    expect(formatDate(iso, { hash: {}, data: {} })).toBe('3/9/2026');
    expect(formatDate(iso, 'unknown-style')).toBe('3/9/2026');
  });
  test.each([
    ['short', '3/9/2026'],
    ['medium', 'Mar 9, 2026'],
    ['long', 'March 9, 2026'],
    ['full', 'Monday, March 9, 2026'],
    ['iso', '2026-03-09T14:30:00.000Z'],
  ])('style %s', (style, expected) => expect(formatDate(iso, style)).toBe(expected));
  test('accepts epoch ms (number or numeric string) and Date', () => {
    const ms = Date.parse(iso);
    expect(formatDate(ms, 'medium')).toBe('Mar 9, 2026');
    expect(formatDate(String(ms), 'medium')).toBe('Mar 9, 2026');
    expect(formatDate(new Date(ms), 'medium')).toBe('Mar 9, 2026');
  });
  test('a time zone can move the day', () => {
    const lateUtc = '2026-01-05T02:00:00Z';
    expect(formatDate(lateUtc, 'short')).toBe('1/5/2026');
    expect(formatDate(lateUtc, 'short', 'America/New_York')).toBe('1/4/2026');
    expect(formatDate('2026-01-04T20:00:00Z', 'long', 'Asia/Tokyo')).toBe('January 5, 2026');
    expect(formatDate(lateUtc, 'iso', 'Asia/Tokyo')).toBe('2026-01-05T11:00:00.000+09:00');
  });
  test('an invalid zone falls back to UTC', () => expect(formatDate('2026-01-05T02:00:00Z', 'short', 'Mars/Base')).toBe('1/5/2026'));
  test.each([undefined, null, '', 'not a date', '2026-13-45', {}, NaN, new Date('x')])('invalid %p renders empty', (value) => expect(formatDate(value, 'long')).toBe(''));
});

describe('multiply', () => {
  test('two decimals', () => {
    expect(multiply(2.5, 10)).toBe('25.00');
    expect(multiply('3', '1.333')).toBe('4.00');
    expect(multiply(1.005, 1)).toBe('1.01');
    expect(multiply(-2, 0.125)).toBe('-0.25');
  });
  test.each([
    [undefined, 2],
    [2, undefined],
    ['x', 2],
    [null, 2],
    [2, {}],
  ])('%p * %p renders empty', (a, b) => expect(multiply(a, b)).toBe(''));
});

describe('text helpers', () => {
  test('capitalize', () => {
    expect(capitalize('hello world')).toBe('Hello world');
    expect(capitalize('')).toBe('');
    expect(capitalize('éclair')).toBe('Éclair');
  });
  test('uppercase and lowercase', () => {
    expect(uppercase('MiXed')).toBe('MIXED');
    expect(lowercase('MiXed')).toBe('mixed');
  });
  test.each([undefined, null, 42, {}, ['a']])('non-string %p renders empty', (value) => {
    expect(capitalize(value)).toBe('');
    expect(uppercase(value)).toBe('');
    expect(lowercase(value)).toBe('');
  });
});
