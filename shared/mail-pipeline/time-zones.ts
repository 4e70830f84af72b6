import { IANAZone } from 'luxon';

// Offset forms (`UTC+9`, `GMT-3`, `+09:00`, `9`): the spec (4.5 rule 4) says not to rely on them
// in `timezone`, and newer Intl versions accept some of them, so they are refused here explicitly.
const OFFSET_FORM = /^\s*(?:[+-]|\d|(?:utc|gmt)\s*[+-]\d)/i;

/** True for an IANA zone name (`Europe/Berlin`, `UTC`); offset forms such as `UTC+9` or `+09:00` are not. */
export function isValidTimeZone(zone: string): boolean {
  return typeof zone === 'string' && !OFFSET_FORM.test(zone) && IANAZone.isValidZone(zone);
}

/**
 * A valid zone name with its usual capitalisation (`america/new_york` → `America/New_York`).
 * Only the case is fixed: Intl would also rename zones (`EST` → `America/Panama`), which would
 * surprise the caller who chose the name.
 */
export function displayTimeZone(zone: string): string {
  const resolved = new Intl.DateTimeFormat('en-US', { timeZone: zone }).resolvedOptions().timeZone;
  return resolved.toLowerCase() === zone.toLowerCase() ? resolved : zone;
}

/** A UTC offset in minutes as a label: `UTC`, `UTC+9`, `UTC+5:30`, `UTC-3:30`. */
export function offsetLabel(minutes: number): string {
  if (minutes === 0) return 'UTC';
  const sign = minutes > 0 ? '+' : '-';
  const hours = Math.floor(Math.abs(minutes) / 60);
  const rest = Math.abs(minutes) % 60;
  return `UTC${sign}${hours}${rest === 0 ? '' : `:${String(rest).padStart(2, '0')}`}`;
}
