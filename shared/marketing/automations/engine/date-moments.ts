/**
 * A date trigger's moment for one lead (pure, luxon): the date in its data plus `offset_days`
 * (yearly: of the date's anniversary), at `at` in the lead's zone. The daily walk enters the leads
 * whose moment falls within its day (UTC).
 */
import { DateTime } from 'luxon';
import type { Trigger } from '../definition';
import { timeOfDay } from './wait-times';

type DateTrigger = Extract<Trigger, { type: 'date' }>;

/** The calendar date (yyyy-mm-dd) an attribute holds: an ISO date or timestamp (its own date as written); undefined for anything else. */
export function calendarDate(value: unknown): { year: number; month: number; day: number } | undefined {
  if (typeof value !== 'string') return undefined;
  const match = /^(\d{4})-(\d{2})-(\d{2})/.exec(value.trim());
  if (!match) return undefined;
  const date = DateTime.fromObject({ year: Number(match[1]), month: Number(match[2]), day: Number(match[3]) }, { zone: 'UTC' });
  return date.isValid ? { year: date.year, month: date.month, day: date.day } : undefined;
}

/** A lead's moment within [dayStart, dayStart + 1 day), and the local date it is on; undefined when it has none that day. */
export function momentWithinDay(trigger: DateTrigger, value: unknown, zone: string, day: string): { at: Date; date: string } | undefined {
  const date = calendarDate(value);
  if (!date) return undefined;
  const start = DateTime.fromISO(day, { zone: 'UTC' }).startOf('day');
  const end = start.plus({ days: 1 });
  const { hour, minute } = timeOfDay(trigger.at);
  // The lead's local dates that day touches: the UTC day spans at most two of them.
  const localDates = [start.setZone(zone).startOf('day'), end.minus({ milliseconds: 1 }).setZone(zone).startOf('day')];
  for (const local of localDates) {
    if (!matchesDate(trigger, date, local)) continue;
    const moment = local.set({ hour, minute, second: 0, millisecond: 0 });
    if (moment >= start && moment < end) return { at: moment.toJSDate(), date: local.toISODate() as string };
  }
  return undefined;
}

/** Whether `local` (a date in the lead's zone) is the date plus the offset: once, or on any anniversary when yearly. */
function matchesDate(trigger: DateTrigger, date: { year: number; month: number; day: number }, local: DateTime): boolean {
  const years = trigger.yearly ? [local.year - 1, local.year, local.year + 1] : [date.year];
  for (const year of years) {
    // February 29 falls on February 28 in other years.
    const anniversary = DateTime.fromObject({ year, month: date.month, day: Math.min(date.day, DateTime.fromObject({ year, month: date.month }).daysInMonth ?? 28) }, { zone: local.zone });
    const target = anniversary.plus({ days: trigger.offset_days });
    if (target.year === local.year && target.month === local.month && target.day === local.day) return true;
  }
  return false;
}
