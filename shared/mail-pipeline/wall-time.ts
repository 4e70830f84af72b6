import { DateTime, type Zone } from 'luxon';

/** A calendar date and clock time with no zone: what a clock on the wall shows. */
export interface WallTime {
  year: number;
  month: number;
  day: number;
  hour: number;
  minute: number;
  second: number;
  millisecond: number;
}

const DAY_MS = 86_400_000;
const MINUTE_MS = 60_000;

/**
 * The wall time read as if it were UTC, in epoch milliseconds; NaN when it names no real date
 * or time (February 30th, 24:00). This zone-free frame has no daylight saving, so differences
 * in it are plain calendar arithmetic.
 */
export function wallTimeAsUtcMillis(wall: WallTime): number {
  const dateTime = DateTime.fromObject({ ...wall }, { zone: 'utc' });
  return dateTime.isValid ? dateTime.toMillis() : Number.NaN;
}

/** What the wall clock shows in `zone` at `instant` (epoch milliseconds). */
export function wallTimeAt(instant: number, zone: Zone): WallTime {
  const { year, month, day, hour, minute, second, millisecond } = DateTime.fromMillis(instant, { zone });
  return { year, month, day, hour, minute, second, millisecond };
}

/**
 * The instant (epoch milliseconds) at which `zone`'s clocks show `wall`; NaN for an impossible
 * wall time. Daylight saving makes this ambiguous twice a year, and luxon's own answer depends on
 * the zone, so the rule is ours:
 * - a wall time the clocks skip (spring forward) is shifted forward by the gap: 02:30 on a day
 *   New York jumps from 02:00 to 03:00 becomes 03:30 EDT;
 * - a wall time the clocks show twice (fall back) is the earlier of the two instants: 01:30 on a
 *   day New York goes back from 02:00 to 01:00 is 01:30 EDT.
 */
export function wallTimeToInstant(wall: WallTime, zone: Zone): number {
  const asUtc = wallTimeAsUtcMillis(wall);
  if (Number.isNaN(asUtc)) return Number.NaN;
  // Offsets never exceed a day, so the offsets a day either side are the ones in play.
  const offsetBefore = zone.offset(asUtc - DAY_MS);
  const offsetAfter = zone.offset(asUtc + DAY_MS);
  const matches = [offsetBefore, offsetAfter]
    .map((offset) => ({ offset, instant: asUtc - offset * MINUTE_MS }))
    .filter(({ offset, instant }) => zone.offset(instant) === offset)
    .map(({ instant }) => instant);
  if (matches.length > 0) return Math.min(...matches);
  // In a gap: read the wall time with the offset from before the jump, which lands the same
  // distance past the jump as the wall time was past the last valid minute.
  return asUtc - offsetBefore * MINUTE_MS;
}
