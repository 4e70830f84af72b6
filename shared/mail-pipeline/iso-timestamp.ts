import { wallTimeAsUtcMillis, type WallTime } from './wall-time';

/** An ISO 8601 timestamp taken apart: the wall time, and the offset when the text carried one. */
export interface IsoTimestamp {
  wall: WallTime;
  /** Minutes east of UTC (`Z` is 0); absent for a zone-less timestamp. */
  offsetMinutes?: number;
}

// The extended calendar form only: `2026-12-01`, `2026-12-01T09:00`, `2026-12-01 09:00:30.250`,
// each time optionally followed by `Z`, `+09:00`, `+0900` or `+09`. Week dates, ordinal dates and
// the basic form (`20261201T0900`) are left to the natural-language reader, which refuses them.
const ISO_TIMESTAMP =
  /^(\d{4})-(\d{2})-(\d{2})(?:[Tt ](\d{2}):(\d{2})(?::(\d{2})(?:[.,](\d{1,9}))?)?(?:([Zz])|([+-])(\d{2})(?::?(\d{2}))?)?)?$/;

/** True when the text has the shape of an ISO 8601 timestamp, whether or not its numbers make sense. */
export function looksLikeIsoTimestamp(text: string): boolean {
  return ISO_TIMESTAMP.test(text.trim());
}

/** Reads an ISO 8601 timestamp; undefined when the text is not one or names no real date and time. */
export function readIsoTimestamp(text: string): IsoTimestamp | undefined {
  const match = ISO_TIMESTAMP.exec(text.trim());
  if (!match) return undefined;
  const [, year, month, day, hour, minute, second, fraction, zulu, sign, offsetHours, offsetMinutes] = match;
  const wall: WallTime = {
    year: Number(year),
    month: Number(month),
    day: Number(day),
    hour: Number(hour ?? 0),
    minute: Number(minute ?? 0),
    second: Number(second ?? 0),
    millisecond: Number((fraction ?? '').padEnd(3, '0').slice(0, 3)),
  };
  if (Number.isNaN(wallTimeAsUtcMillis(wall))) return undefined;
  if (zulu) return { wall, offsetMinutes: 0 };
  if (!sign) return { wall };
  const hours = Number(offsetHours);
  const minutes = Number(offsetMinutes ?? 0);
  if (hours > 23 || minutes > 59) return undefined;
  // `-00:00` means "offset unknown" in RFC 3339; the instant is still UTC, so it reads as 0.
  return { wall, offsetMinutes: (sign === '-' ? -1 : 1) * (hours * 60 + minutes) || 0 };
}

/**
 * The instant of an ISO 8601 timestamp, a zone-less one read as UTC; undefined when the text is
 * not ISO 8601 (callers choose the error).
 */
export function parseIsoTimestamp(text: string): Date | undefined {
  if (typeof text !== 'string') return undefined;
  const timestamp = readIsoTimestamp(text);
  if (!timestamp) return undefined;
  return new Date(wallTimeAsUtcMillis(timestamp.wall) - (timestamp.offsetMinutes ?? 0) * 60_000);
}
