import * as z from '../../platform/core/zod';
import { AppError } from '../../platform/core/errors';
import { parseRequest } from '../../platform/core/validate';
import { isValidTimeZone, offsetLabel, parseIsoTimestamp, readIsoTimestamp } from '..';

/** A valid `PATCH /v1/scheduled-sends/:id` body: the new instant and the zone label its text carried. */
export interface RescheduleRequest {
  instant: Date;
  /** `UTC` for `Z` or no offset, else `UTC+9`, `UTC-5:30`: the labels of the scheduled answer (part 4.5). */
  offsetLabel: string;
}

/** Messages of the 400 INVALID_INPUT answers (the `message` field; `error` is the code). */
export const RESCHEDULE_MESSAGES = {
  required: 'scheduled_at is required',
  notString: 'scheduled_at must be a string',
  notIso: 'scheduled_at must be an ISO 8601 timestamp (for example 2030-01-31T09:00:00+01:00)',
  past: 'scheduled_at must be in the future',
} as const;

/** 400 `{error: 'INVALID_INPUT', message}` (part 7). */
export function invalidInput(message: string): AppError {
  return new AppError(400, 'INVALID_INPUT', 'INVALID_INPUT', { message });
}

/** A timestamp `readIsoTimestamp` reads (extended calendar form, with an offset, `Z` or none) that names a real instant. */
const isIsoInstant = (value: string): boolean => readIsoTimestamp(value) !== undefined && parseIsoTimestamp(value) !== undefined;

/**
 * The body of `PATCH /v1/scheduled-sends/:id`: `scheduled_at` is required, ISO 8601 only (natural
 * language is for `POST /send-email`), with an offset or `Z`, or zone-less meaning UTC. A body that
 * is no object has no `scheduled_at`. That the time is still ahead is checked against the clock
 * after parsing.
 */
export const rescheduleBodySchema = z.object(
  {
    scheduled_at: z
      .string({ error: (issue) => (issue.input == null ? RESCHEDULE_MESSAGES.required : RESCHEDULE_MESSAGES.notString) })
      .check(z.refine((v) => v !== '', RESCHEDULE_MESSAGES.required), z.refine((v) => v === '' || isIsoInstant(v), RESCHEDULE_MESSAGES.notIso)),
  },
  { error: RESCHEDULE_MESSAGES.required },
);

/** A PATCH body as `rescheduleBodySchema` accepts it. */
export type RescheduleBody = z.output<typeof rescheduleBodySchema>;

/** Reads the PATCH body (`rescheduleBodySchema`); the new time must be strictly after `now`. */
export function parseRescheduleRequest(body: unknown, now: Date): RescheduleRequest {
  return toRescheduleRequest(parseRequest(rescheduleBodySchema, body, invalidInput), now);
}

/** A PATCH body `rescheduleBodySchema` accepted (refused with invalidInput); the new time must be strictly after `now`. */
export function toRescheduleRequest({ scheduled_at: value }: z.output<typeof rescheduleBodySchema>, now: Date): RescheduleRequest {
  // The same ISO reader as POST /send-email (extended calendar form), so both accept the same texts.
  const timestamp = readIsoTimestamp(value)!;
  const instant = parseIsoTimestamp(value)!;
  if (instant.getTime() <= now.getTime()) throw invalidInput(RESCHEDULE_MESSAGES.past);
  return { instant, offsetLabel: offsetLabel(timestamp.offsetMinutes ?? 0) };
}

/**
 * The `timezone` label after a move: a regional IANA zone (`Europe/Paris`) stays, the send still
 * belongs to that zone; a label that only described an offset (`UTC+9`, and `UTC` itself) takes
 * the new timestamp's.
 */
export function timezoneAfterMove(current: string, request: RescheduleRequest): string {
  const regional = isValidTimeZone(current) && !/^(UTC|GMT|Etc\/)/i.test(current);
  return regional ? current : request.offsetLabel;
}
