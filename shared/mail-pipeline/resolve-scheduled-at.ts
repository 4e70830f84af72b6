import { DateTime, FixedOffsetZone, IANAZone, type Zone } from 'luxon';
import { badRequest } from '../platform/core/errors';
import { looksLikeIsoTimestamp, readIsoTimestamp } from './iso-timestamp';
import { readNaturalTime } from './natural-language';
import { displayTimeZone, isValidTimeZone, offsetLabel } from './time-zones';
import { wallTimeAt, wallTimeToInstant } from './wall-time';

export { parseIsoTimestamp } from './iso-timestamp';
export { isValidTimeZone, offsetLabel } from './time-zones';

/** When a `scheduled_at` falls (part 4.5, scheduling rules). */
export interface ResolvedSchedule {
  /** The instant, UTC. */
  instant: Date;
  /** IANA zone used for natural language / zone-less ISO, or an offset label like `UTC+9`, `UTC-3:30`, `UTC` when the text carried its own offset or Z. */
  timezone: string;
  /** ISO 8601 with the zone's offset at that instant, e.g. `2026-03-08T15:00:00.000-04:00`; always numeric (`+00:00`, never `Z`). */
  local: string;
}

/** What `scheduled_at` is read against. */
export interface ScheduleOptions {
  /** The request's `timezone`: an IANA name. */
  timezone?: string;
  /** The project's default zone; an invalid one is treated as unset so sends keep working. */
  projectTimezone?: string;
  now: Date;
}

// Longer texts are no date anyone typed; refusing them keeps the parser's work bounded.
const MAX_TEXT_LENGTH = 200;
const MAX_ECHO_LENGTH = 100;

/**
 * Resolves `scheduled_at` (ISO 8601 or English) to a future instant. An offset or `Z` in the
 * timestamp fixes the instant; otherwise the time is wall time in `timezone`, else the project's
 * zone, else UTC. Throws 400 for an invalid `timezone`, an unreadable text or a time not after `now`.
 */
export function resolveScheduledAt(text: string, options: ScheduleOptions): ResolvedSchedule {
  const zoneName = chooseZone(options);
  const trimmed = typeof text === 'string' ? text.trim() : '';
  const resolved = trimmed.length <= MAX_TEXT_LENGTH ? resolveText(trimmed, zoneName, options.now) : undefined;
  if (!resolved) throw badRequest(`scheduled_at could not be understood: ${echo(trimmed)}`);
  if (resolved.instant.getTime() <= options.now.getTime()) throw badRequest('scheduled_at must be in the future');
  return resolved;
}

/** The zone for zone-less times: the request's (which must be valid), else a valid project zone, else UTC. */
function chooseZone({ timezone, projectTimezone }: ScheduleOptions): string {
  if (timezone != null && String(timezone).trim() !== '') {
    if (!isValidTimeZone(timezone)) throw badRequest(`Invalid timezone: ${timezone}`);
    return displayTimeZone(timezone);
  }
  if (projectTimezone != null && isValidTimeZone(projectTimezone)) return displayTimeZone(projectTimezone);
  return 'UTC';
}

function resolveText(text: string, zoneName: string, now: Date): ResolvedSchedule | undefined {
  const zone = IANAZone.create(zoneName);
  if (looksLikeIsoTimestamp(text)) {
    const iso = readIsoTimestamp(text);
    if (!iso) return undefined;
    if (iso.offsetMinutes === undefined) return schedule(wallTimeToInstant(iso.wall, zone), zone, zoneName);
    const fixed = FixedOffsetZone.instance(iso.offsetMinutes);
    return schedule(wallTimeToInstant(iso.wall, fixed), fixed, offsetLabel(iso.offsetMinutes));
  }
  let natural = readNaturalTime(text, wallTimeAt(now.getTime(), zone));
  if (natural?.kind === 'wall' && natural.offsetMinutes !== undefined) {
    // The text names its own zone (`tomorrow at 3pm EST`): read it again against that zone's
    // clock, so `tomorrow` and "already past today" follow the zone the text names.
    natural = readNaturalTime(text, wallTimeAt(now.getTime(), FixedOffsetZone.instance(natural.offsetMinutes)));
  }
  if (!natural) return undefined;
  if (natural.kind === 'elapsed') return schedule(now.getTime() + natural.milliseconds, zone, zoneName);
  if (natural.offsetMinutes === undefined) return schedule(wallTimeToInstant(natural.wall, zone), zone, zoneName);
  const fixed = FixedOffsetZone.instance(natural.offsetMinutes);
  return schedule(wallTimeToInstant(natural.wall, fixed), fixed, offsetLabel(natural.offsetMinutes));
}

function schedule(instant: number, zone: Zone, timezone: string): ResolvedSchedule | undefined {
  const local = DateTime.fromMillis(instant, { zone });
  if (Number.isNaN(instant) || !local.isValid) return undefined;
  // luxon writes `Z` for a fixed zero offset but `+00:00` for the zone `UTC`; one form for all.
  return { instant: new Date(instant), timezone, local: `${local.toISO({ includeOffset: false })}${local.toFormat('ZZ')}` };
}

function echo(text: string): string {
  return text.length > MAX_ECHO_LENGTH ? `${text.slice(0, MAX_ECHO_LENGTH)}…` : text;
}
