/**
 * When a wait ends: a duration from now, or the next time of day in the lead's zone (luxon). Pure:
 * the step records the time it computed in its timeline entry, so a redo waits until the same time.
 */
import { DateTime } from 'luxon';
import { isValidTimeZone } from '../../../mail-pipeline';
import type { Duration, WaitUntilStep } from '../definition';

/** `now` plus a duration. */
export function afterDuration(now: Date, duration: Duration): Date {
  const ms = ((duration.days ?? 0) * 24 * 60 + (duration.hours ?? 0) * 60 + (duration.minutes ?? 0)) * 60_000;
  return new Date(now.getTime() + ms);
}

/**
 * The zone of a lead's times: its data's `attribute` (default `timezone`) when it names an IANA
 * zone, else the project's time zone, else UTC.
 */
export function leadZone(data: Record<string, unknown>, projectZone: string | undefined, attribute = 'timezone'): string {
  const own = data[attribute];
  if (typeof own === 'string' && isValidTimeZone(own)) return own;
  if (projectZone && isValidTimeZone(projectZone)) return projectZone;
  return 'UTC';
}

/** Hours and minutes of `HH:MM`. */
export function timeOfDay(text: string): { hour: number; minute: number } {
  const [hour, minute] = text.split(':').map(Number);
  return { hour, minute };
}

/** The next `step.time` in `zone` strictly after `now`, on one of `step.weekdays` (1 Monday .. 7 Sunday) when given. */
export function nextTimeOfDay(now: Date, step: Pick<WaitUntilStep, 'time' | 'weekdays'>, zone: string): Date {
  const { hour, minute } = timeOfDay(step.time);
  const local = DateTime.fromJSDate(now, { zone });
  for (let day = 0; day < 8; day++) {
    const candidate = local.plus({ days: day }).set({ hour, minute, second: 0, millisecond: 0 });
    if (candidate.toMillis() <= now.getTime()) continue;
    if (step.weekdays && step.weekdays.length > 0 && !step.weekdays.includes(candidate.weekday)) continue;
    return candidate.toJSDate();
  }
  // Unreachable: eight days cover every weekday.
  throw new Error(`No ${step.time} found within a week in ${zone}`);
}
