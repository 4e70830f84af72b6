import { DateTime } from 'luxon';

/**
 * The template helpers of part 2. Each takes the values a template passes and ignores Handlebars'
 * trailing options object; none throws on bad input (it renders '' or a plain fallback instead).
 */

/** The options object Handlebars appends to every helper call. */
const isHelperOptions = (value: unknown): boolean => typeof value === 'object' && value !== null && 'hash' in value && 'data' in value;

/** A finite number from a number or a numeric string, else undefined. */
export function toNumber(value: unknown): number | undefined {
  if (typeof value === 'number') return Number.isFinite(value) ? value : undefined;
  if (typeof value === 'string' && value.trim() !== '') {
    const n = Number(value.trim());
    return Number.isFinite(n) ? n : undefined;
  }
  return undefined;
}

/** `{{default value "fallback"}}`: the fallback when the value is missing, null or ''. */
export function defaultHelper(value: unknown, fallback?: unknown): unknown {
  const fb = isHelperOptions(fallback) || fallback === undefined ? '' : fallback;
  return value === undefined || value === null || value === '' ? fb : value;
}

let knownCurrencies: Set<string> | undefined;
function isKnownCurrency(code: string): boolean {
  if (!knownCurrencies) {
    const intl = Intl as unknown as { supportedValuesOf?: (key: string) => string[] };
    knownCurrencies = new Set(intl.supportedValuesOf?.('currency') ?? []);
  }
  return knownCurrencies.size === 0 || knownCurrencies.has(code);
}

/** `{{formatCurrency value "EUR"}}`: en-US currency format (USD when no code); an unknown code gives `<number> <CODE>`. */
export function formatCurrency(value: unknown, currency?: unknown): string {
  const n = toNumber(value);
  if (n === undefined) return '';
  const code = typeof currency === 'string' && currency.trim() !== '' ? currency.trim().toUpperCase() : 'USD';
  if (!/^[A-Z]{3}$/.test(code) || !isKnownCurrency(code)) return `${n.toFixed(2)} ${code}`;
  try {
    return new Intl.NumberFormat('en-US', { style: 'currency', currency: code }).format(n);
  } catch {
    return `${n.toFixed(2)} ${code}`;
  }
}

export type DateStyle = 'short' | 'medium' | 'long' | 'full' | 'iso';

const DATE_FORMATS: Record<Exclude<DateStyle, 'iso'>, Intl.DateTimeFormatOptions> = {
  short: DateTime.DATE_SHORT,
  medium: DateTime.DATE_MED,
  long: DateTime.DATE_FULL,
  full: DateTime.DATE_HUGE,
};

function toDateTime(value: unknown): DateTime | undefined {
  let dt: DateTime | undefined;
  if (value instanceof Date) dt = DateTime.fromJSDate(value, { zone: 'utc' });
  else if (typeof value === 'number' && Number.isFinite(value)) dt = DateTime.fromMillis(value, { zone: 'utc' });
  else if (typeof value === 'string' && value.trim() !== '') {
    const text = value.trim();
    dt = /^-?\d+$/.test(text) ? DateTime.fromMillis(Number(text), { zone: 'utc' }) : DateTime.fromISO(text, { zone: 'utc' });
  }
  return dt?.isValid ? dt : undefined;
}

/**
 * `{{formatDate value "long" "Europe/Paris"}}`: ISO string, epoch ms or Date; styles short (default),
 * medium, long, full, iso; in UTC unless a valid IANA zone is given. Invalid dates render ''.
 */
export function formatDate(value: unknown, style?: unknown, zone?: unknown): string {
  const dt = toDateTime(value);
  if (!dt) return '';
  const name: DateStyle = typeof style === 'string' && (style === 'iso' || style in DATE_FORMATS) ? (style as DateStyle) : 'short';
  let zoned = dt;
  if (typeof zone === 'string' && zone.trim() !== '') {
    const candidate = dt.setZone(zone.trim());
    if (candidate.isValid) zoned = candidate;
  }
  if (name === 'iso') return zoned.toISO() ?? '';
  return zoned.setLocale('en-US').toLocaleString(DATE_FORMATS[name]);
}

/** `{{multiply a b}}`: the product with 2 decimals (e.g. `25.00`); '' when either is not a number. */
export function multiply(a: unknown, b: unknown): string {
  const x = toNumber(a);
  const y = toNumber(b);
  if (x === undefined || y === undefined) return '';
  const product = Math.round((x * y + Number.EPSILON) * 100) / 100;
  return product.toFixed(2);
}

/** `{{capitalize s}}`: first character upper-cased, the rest unchanged; '' for non-strings. */
export function capitalize(value: unknown): string {
  return typeof value === 'string' ? value.charAt(0).toUpperCase() + value.slice(1) : '';
}

/** `{{uppercase s}}`; '' for non-strings. */
export function uppercase(value: unknown): string {
  return typeof value === 'string' ? value.toUpperCase() : '';
}

/** `{{lowercase s}}`; '' for non-strings. */
export function lowercase(value: unknown): string {
  return typeof value === 'string' ? value.toLowerCase() : '';
}

/** Helper name -> implementation, as registered on the rendering engine's Handlebars instance. */
export const templateHelpers: Readonly<Record<string, (...args: unknown[]) => unknown>> = {
  default: (value, fallback) => defaultHelper(value, fallback),
  formatCurrency: (value, currency) => formatCurrency(value, currency),
  formatDate: (value, style, zone) => formatDate(value, style, zone),
  multiply: (a, b) => multiply(a, b),
  capitalize: (value) => capitalize(value),
  uppercase: (value) => uppercase(value),
  lowercase: (value) => lowercase(value),
};
