import * as chrono from 'chrono-node';
import { wallTimeAsUtcMillis, type WallTime } from './wall-time';

/** What an English phrase means, before any zone is applied. */
export type NaturalTime =
  /** `in 2 hours`, `in 30 minutes`, `now`: real time from now, whatever the clocks do meanwhile. */
  | { kind: 'elapsed'; milliseconds: number }
  /** `tomorrow at 3pm`, `next monday at 9am`: a wall time, with an offset when the text named a zone (`3pm EST`). */
  | { kind: 'wall'; wall: WallTime; offsetMinutes?: number };

/** The time of day given to a phrase that names a day but no time (`tomorrow`, `next friday`). */
export const DEFAULT_HOUR = 9;

// Words chrono reads as a time of day; their hours (morning 06:00, evening 20:00...) are kept.
const TIME_OF_DAY_TAGS = ['morning', 'afternoon', 'evening', 'tonight', 'noon', 'midnight'].map(
  (word) => `casualReference/${word}`,
);
// What may stand around the one expression chrono found: `in -2 hours` is matched as `-2 hours`.
const FILLER_WORDS = new Set(['at', 'on', 'in']);
const SEPARATORS = /[\s,.;:!]+/;

/**
 * Reads an English date/time phrase against `wallNow`, the current wall time in the target zone.
 * Undefined unless the whole text is one point in time: nothing found, two expressions
 * (`tomorrow or friday`), a range (`3pm to 5pm`) or words left over (`tomorrow at 3pm please`)
 * are refused rather than guessed.
 */
export function readNaturalTime(text: string, wallNow: WallTime): NaturalTime | undefined {
  const phrase = text.replace(/@/g, ' at ').replace(/\s+/g, ' ').trim();
  // chrono computes with the process's local Date methods and only knows fixed offsets, so it is
  // given the zone's wall time as a UTC instant: it then works in a frame without daylight saving
  // (Lambda runs in UTC), and our own rules put the zone back afterwards.
  const referenceMillis = wallTimeAsUtcMillis(wallNow);
  const results = chrono.parse(
    phrase,
    { instant: new Date(referenceMillis), timezone: 0 },
    // Scheduling looks ahead (`friday` is the coming one, `at 17:00` tomorrow once 17:00 is past),
    // except when the text looks back: chrono would otherwise move `last monday` forward.
    { forwardDate: !/\blast\b/i.test(phrase) },
  );
  if (results.length !== 1) return undefined;
  const [result] = results;
  if (result.end) return undefined;
  const rest = `${phrase.slice(0, result.index)} ${phrase.slice(result.index + result.text.length)}`;
  if (!rest.split(SEPARATORS).every((word) => word === '' || FILLER_WORDS.has(word.toLowerCase()))) return undefined;

  const { start } = result;
  const tags = result.tags();
  const wall: WallTime = {
    year: start.get('year') ?? wallNow.year,
    month: start.get('month') ?? wallNow.month,
    day: start.get('day') ?? wallNow.day,
    hour: start.get('hour') ?? 0,
    minute: start.get('minute') ?? 0,
    second: start.get('second') ?? 0,
    millisecond: start.get('millisecond') ?? 0,
  };
  if (tags.has('result/relativeDateAndTime') || tags.has('casualReference/now')) {
    // chrono added the duration to the reference in the daylight-saving-free frame, so the
    // difference is real elapsed time.
    return { kind: 'elapsed', milliseconds: wallTimeAsUtcMillis(wall) - referenceMillis };
  }
  // `in 3 days`, `next week` keep the current time of day; a named day alone gets the default.
  const namesATime = start.isCertain('hour') || TIME_OF_DAY_TAGS.some((tag) => tags.has(tag));
  if (!namesATime && !tags.has('result/relativeDate')) {
    Object.assign(wall, { hour: DEFAULT_HOUR, minute: 0, second: 0, millisecond: 0 });
  }
  const offsetMinutes = start.isCertain('timezoneOffset') ? (start.get('timezoneOffset') ?? undefined) : undefined;
  return offsetMinutes === undefined ? { kind: 'wall', wall } : { kind: 'wall', wall, offsetMinutes };
}
