import { AppError } from '../../../../shared/platform/core/errors';
import {
  isValidTimeZone,
  offsetLabel,
  parseIsoTimestamp,
  resolveScheduledAt,
  type ResolvedSchedule,
} from '../../../../shared/mail-pipeline/resolve-scheduled-at';

// Wednesday 2026-06-10 12:00 UTC: 08:00 in New York (EDT), 14:00 in Berlin, 21:00 in Tokyo,
// 22:30 on Lord Howe Island (+10:30 in winter).
const JUNE_10_NOON_UTC = new Date('2026-06-10T12:00:00.000Z');

/** The schedule as plain strings, so a failure shows all three fields at once. */
function resolve(text: string, options: { timezone?: string; projectTimezone?: string; now?: Date } = {}) {
  const result: ResolvedSchedule = resolveScheduledAt(text, { now: JUNE_10_NOON_UTC, ...options });
  return { instant: result.instant.toISOString(), timezone: result.timezone, local: result.local };
}

/** The error thrown, or a failure when nothing is thrown. */
function errorOf(action: () => unknown): AppError {
  try {
    action();
  } catch (error) {
    return error as AppError;
  }
  throw new Error('expected an error, got a result');
}

const pastError = { name: 'AppError', status: 400, message: 'scheduled_at must be in the future' };
const notUnderstood = (text: string) => ({ name: 'AppError', status: 400, message: `scheduled_at could not be understood: ${text}` });

describe('rule 1: an ISO 8601 timestamp with an offset fixes the instant', () => {
  it('reads Z as UTC and labels it UTC', () => {
    expect(resolve('2026-12-01T09:00:00Z')).toEqual({
      instant: '2026-12-01T09:00:00.000Z',
      timezone: 'UTC',
      local: '2026-12-01T09:00:00.000+00:00',
    });
  });

  it('reads +09:00 as nine hours ahead and labels it UTC+9', () => {
    expect(resolve('2026-12-01T09:00:00+09:00')).toEqual({
      instant: '2026-12-01T00:00:00.000Z',
      timezone: 'UTC+9',
      local: '2026-12-01T09:00:00.000+09:00',
    });
  });

  it('reads -03:30 and labels it UTC-3:30', () => {
    expect(resolve('2026-12-01T09:00-03:30')).toEqual({
      instant: '2026-12-01T12:30:00.000Z',
      timezone: 'UTC-3:30',
      local: '2026-12-01T09:00:00.000-03:30',
    });
  });

  it('accepts the compact offset forms +0530 and +05', () => {
    expect(resolve('2026-12-01T09:00+0530')).toMatchObject({ instant: '2026-12-01T03:30:00.000Z', timezone: 'UTC+5:30' });
    expect(resolve('2026-12-01T09:00+05')).toMatchObject({ instant: '2026-12-01T04:00:00.000Z', timezone: 'UTC+5' });
  });

  it('labels +00:00 as UTC', () => {
    expect(resolve('2026-12-01T09:00:00+00:00')).toMatchObject({ instant: '2026-12-01T09:00:00.000Z', timezone: 'UTC' });
  });

  it('writes a zero offset as +00:00 whether it came from Z, an offset or the zone UTC', () => {
    const local = '2026-12-01T09:00:00.000+00:00';
    expect(resolve('2026-12-01T09:00:00Z').local).toBe(local);
    expect(resolve('2026-12-01T09:00:00+00:00').local).toBe(local);
    expect(resolve('2026-12-01T09:00', { timezone: 'UTC' }).local).toBe(local);
  });

  it('keeps fractional seconds to the millisecond', () => {
    expect(resolve('2026-12-01T09:00:00.123456Z').instant).toBe('2026-12-01T09:00:00.123Z');
  });

  it('ignores the timezone option and the project zone', () => {
    expect(resolve('2026-12-01T09:00:00+09:00', { timezone: 'America/New_York', projectTimezone: 'Europe/Berlin' })).toEqual({
      instant: '2026-12-01T00:00:00.000Z',
      timezone: 'UTC+9',
      local: '2026-12-01T09:00:00.000+09:00',
    });
  });
});

describe('rule 2: an ISO 8601 timestamp without an offset is wall time in the zone', () => {
  it('uses the project zone when the request names none', () => {
    expect(resolve('2026-12-01T09:00', { projectTimezone: 'Europe/Berlin' })).toEqual({
      instant: '2026-12-01T08:00:00.000Z',
      timezone: 'Europe/Berlin',
      local: '2026-12-01T09:00:00.000+01:00',
    });
  });

  it('prefers the timezone option to the project zone', () => {
    expect(resolve('2026-12-01T09:00', { timezone: 'America/New_York', projectTimezone: 'Europe/Berlin' })).toEqual({
      instant: '2026-12-01T14:00:00.000Z',
      timezone: 'America/New_York',
      local: '2026-12-01T09:00:00.000-05:00',
    });
  });

  it('falls back to UTC without any zone', () => {
    expect(resolve('2026-12-01T09:00')).toEqual({
      instant: '2026-12-01T09:00:00.000Z',
      timezone: 'UTC',
      local: '2026-12-01T09:00:00.000+00:00',
    });
  });

  it('accepts a space between date and time', () => {
    expect(resolve('2026-12-01 09:00', { timezone: 'Asia/Tokyo' }).instant).toBe('2026-12-01T00:00:00.000Z');
  });

  it('reads a date alone as midnight in the zone', () => {
    expect(resolve('2026-12-01', { timezone: 'Asia/Tokyo' })).toEqual({
      instant: '2026-11-30T15:00:00.000Z',
      timezone: 'Asia/Tokyo',
      local: '2026-12-01T00:00:00.000+09:00',
    });
  });

  it('refuses a date that does not exist', () => {
    expect(errorOf(() => resolve('2026-02-30T09:00'))).toMatchObject(notUnderstood('2026-02-30T09:00'));
  });
});

describe('rule 3: natural language is read in the timezone, else the project zone, else UTC', () => {
  // Each example in two zones; `now` is Wednesday 2026-06-10 12:00 UTC.
  it.each([
    ['tomorrow at 3pm', 'America/New_York', '2026-06-11T19:00:00.000Z', '2026-06-11T15:00:00.000-04:00'],
    ['tomorrow at 3pm', 'Asia/Tokyo', '2026-06-11T06:00:00.000Z', '2026-06-11T15:00:00.000+09:00'],
    ['in 2 hours', 'America/New_York', '2026-06-10T14:00:00.000Z', '2026-06-10T10:00:00.000-04:00'],
    ['in 2 hours', 'Asia/Tokyo', '2026-06-10T14:00:00.000Z', '2026-06-10T23:00:00.000+09:00'],
    ['next monday at 9am', 'America/New_York', '2026-06-15T13:00:00.000Z', '2026-06-15T09:00:00.000-04:00'],
    ['next monday at 9am', 'Europe/Berlin', '2026-06-15T07:00:00.000Z', '2026-06-15T09:00:00.000+02:00'],
    ['in 30 minutes', 'Europe/Berlin', '2026-06-10T12:30:00.000Z', '2026-06-10T14:30:00.000+02:00'],
    ['in 30 minutes', 'Australia/Lord_Howe', '2026-06-10T12:30:00.000Z', '2026-06-10T23:00:00.000+10:30'],
    ['tomorrow 9:30', 'Europe/Berlin', '2026-06-11T07:30:00.000Z', '2026-06-11T09:30:00.000+02:00'],
    ['tomorrow 9:30', 'Asia/Tokyo', '2026-06-11T00:30:00.000Z', '2026-06-11T09:30:00.000+09:00'],
    ['friday at noon', 'America/New_York', '2026-06-12T16:00:00.000Z', '2026-06-12T12:00:00.000-04:00'],
    ['friday at noon', 'Asia/Tokyo', '2026-06-12T03:00:00.000Z', '2026-06-12T12:00:00.000+09:00'],
    ['december 24 at 8am', 'America/New_York', '2026-12-24T13:00:00.000Z', '2026-12-24T08:00:00.000-05:00'],
    ['december 24 at 8am', 'Asia/Tokyo', '2026-12-23T23:00:00.000Z', '2026-12-24T08:00:00.000+09:00'],
    ['at 17:00', 'America/New_York', '2026-06-10T21:00:00.000Z', '2026-06-10T17:00:00.000-04:00'],
    ['tomorrow at 3pm', 'Australia/Lord_Howe', '2026-06-11T04:30:00.000Z', '2026-06-11T15:00:00.000+10:30'],
  ])('reads %j in %s', (text, timezone, instant, local) => {
    expect(resolve(text, { timezone })).toEqual({ instant, timezone, local });
  });

  it('reads a time already past today as that time tomorrow', () => {
    // 21:00 in Tokyo: 17:00 has gone.
    expect(resolve('at 17:00', { timezone: 'Asia/Tokyo' }).local).toBe('2026-06-11T17:00:00.000+09:00');
  });

  it('uses the project zone when the request names none', () => {
    expect(resolve('tomorrow at 3pm', { projectTimezone: 'Asia/Tokyo' })).toMatchObject({
      instant: '2026-06-11T06:00:00.000Z',
      timezone: 'Asia/Tokyo',
    });
  });

  it('prefers the timezone option to the project zone', () => {
    expect(resolve('tomorrow at 3pm', { timezone: 'America/New_York', projectTimezone: 'Asia/Tokyo' })).toMatchObject({
      instant: '2026-06-11T19:00:00.000Z',
      timezone: 'America/New_York',
    });
  });

  it('falls back to UTC without any zone', () => {
    expect(resolve('tomorrow at 3pm')).toEqual({
      instant: '2026-06-11T15:00:00.000Z',
      timezone: 'UTC',
      local: '2026-06-11T15:00:00.000+00:00',
    });
  });

  it('reads "tomorrow" from the date in the zone, not in UTC', () => {
    // 01:00 on Thursday in Tokyo is still Wednesday in UTC.
    const now = new Date('2026-06-10T16:00:00.000Z');
    expect(resolve('tomorrow at 3pm', { timezone: 'Asia/Tokyo', now }).local).toBe('2026-06-12T15:00:00.000+09:00');
  });

  it('honours a zone named in the text and labels the instant with its offset', () => {
    expect(resolve('tomorrow at 3pm EST', { timezone: 'Asia/Tokyo' })).toEqual({
      instant: '2026-06-11T20:00:00.000Z',
      timezone: 'UTC-5',
      local: '2026-06-11T15:00:00.000-05:00',
    });
  });

  it('reads a phrase naming its own zone against that zone\'s clock', () => {
    // 21:00 in Tokyo but 12:00 UTC: 13:00 UTC is still to come today.
    expect(resolve('at 13:00 UTC', { timezone: 'Asia/Tokyo' }).instant).toBe('2026-06-10T13:00:00.000Z');
    // 01:00 on Thursday in Tokyo is still Wednesday in UTC, so tomorrow is Thursday.
    const now = new Date('2026-06-10T16:00:00.000Z');
    expect(resolve('tomorrow at 9am UTC', { timezone: 'Asia/Tokyo', now }).instant).toBe('2026-06-11T09:00:00.000Z');
  });

  it('accepts "@" for "at" and ignores case and surrounding spaces', () => {
    expect(resolve('  Tomorrow @ 3PM ', { timezone: 'America/New_York' }).instant).toBe('2026-06-11T19:00:00.000Z');
  });
});

describe('rule 3: a day named without a time', () => {
  it('is 09:00 in the zone for "tomorrow"', () => {
    expect(resolve('tomorrow', { timezone: 'Europe/Berlin' }).local).toBe('2026-06-11T09:00:00.000+02:00');
  });

  it('is 09:00 in the zone for "next friday"', () => {
    expect(resolve('next friday', { timezone: 'America/New_York' }).local).toBe('2026-06-19T09:00:00.000-04:00');
  });

  it('is 09:00 in the zone for a month and day', () => {
    expect(resolve('december 24', { timezone: 'Asia/Tokyo' }).local).toBe('2026-12-24T09:00:00.000+09:00');
  });

  it('keeps the current time of day for "in 3 days"', () => {
    expect(resolve('in 3 days', { timezone: 'America/New_York' }).local).toBe('2026-06-13T08:00:00.000-04:00');
  });

  it('keeps the hour a time-of-day word gives', () => {
    expect(resolve('tonight', { timezone: 'America/New_York' }).local).toBe('2026-06-10T22:00:00.000-04:00');
  });
});

describe('rule 4: the time must be in the future', () => {
  it.each(['yesterday', 'in -2 hours', '2 hours ago', 'now', 'last monday at 9am', '2026-06-10T11:59:59Z'])(
    'refuses %j with the spec message',
    (text) => {
      expect(errorOf(() => resolve(text, { timezone: 'Europe/Berlin' }))).toMatchObject(pastError);
    },
  );

  it('refuses the current instant itself', () => {
    expect(errorOf(() => resolve('2026-06-10T12:00:00.000Z'))).toMatchObject(pastError);
  });

  it('accepts one millisecond after now', () => {
    expect(resolve('2026-06-10T12:00:00.001Z').instant).toBe('2026-06-10T12:00:00.001Z');
  });

  it('refuses a time earlier today in the zone', () => {
    // 14:00 in Berlin.
    expect(errorOf(() => resolve('today at 9am', { timezone: 'Europe/Berlin' }))).toMatchObject(pastError);
  });

  it('refuses a zone-less ISO time that is past in the zone though future in UTC', () => {
    // 12:30 is future in UTC, but in Berlin 12:30 was 10:30 UTC.
    expect(errorOf(() => resolve('2026-06-10T12:30', { timezone: 'Europe/Berlin' }))).toMatchObject(pastError);
    expect(resolve('2026-06-10T12:30').instant).toBe('2026-06-10T12:30:00.000Z');
  });
});

describe('rule 5: text that is not a time', () => {
  it.each(['garbage', 'tomorrow or friday', 'tomorrow at 3pm please', '3pm to 5pm', '20261201T0900', '2026-13-01', ''])(
    'refuses %j, echoing it',
    (text) => {
      expect(errorOf(() => resolve(text))).toMatchObject(notUnderstood(text));
    },
  );

  it('refuses a non-string without crashing', () => {
    expect(errorOf(() => resolveScheduledAt(42 as unknown as string, { now: JUNE_10_NOON_UTC }))).toMatchObject(notUnderstood(''));
  });

  it('refuses an overlong text and echoes only its start', () => {
    const text = `tomorrow at 3pm ${'x'.repeat(300)}`;
    const error = errorOf(() => resolve(text));
    expect(error).toMatchObject({ status: 400 });
    expect(error.message).toBe(`scheduled_at could not be understood: ${text.slice(0, 100)}…`);
  });
});

describe('rule 6: the timezone option', () => {
  it.each(['Mars/Olympus', 'UTC+9', '+09:00', '9', 'GMT-3', 'Europe/Berlinn'])('refuses %j', (timezone) => {
    expect(errorOf(() => resolve('tomorrow at 3pm', { timezone }))).toMatchObject({
      status: 400,
      message: `Invalid timezone: ${timezone}`,
    });
  });

  it('refuses an invalid timezone even when the timestamp carries an offset', () => {
    expect(errorOf(() => resolve('2026-12-01T09:00:00Z', { timezone: 'Mars/Olympus' }))).toMatchObject({
      message: 'Invalid timezone: Mars/Olympus',
    });
  });

  it('checks the timezone before the text', () => {
    expect(errorOf(() => resolve('garbage', { timezone: 'UTC+9' })).message).toBe('Invalid timezone: UTC+9');
  });

  it('accepts UTC', () => {
    expect(resolve('tomorrow at 3pm', { timezone: 'UTC', projectTimezone: 'Asia/Tokyo' })).toMatchObject({
      instant: '2026-06-11T15:00:00.000Z',
      timezone: 'UTC',
    });
  });

  it('accepts a zone name in any case and reports it capitalised', () => {
    expect(resolve('tomorrow at 3pm', { timezone: 'america/new_york' })).toMatchObject({
      instant: '2026-06-11T19:00:00.000Z',
      timezone: 'America/New_York',
    });
  });

  it('treats an empty timezone as absent', () => {
    expect(resolve('tomorrow at 3pm', { timezone: '', projectTimezone: 'Asia/Tokyo' }).timezone).toBe('Asia/Tokyo');
  });

  it('falls back to UTC when the project zone is invalid', () => {
    expect(resolve('tomorrow at 3pm', { projectTimezone: 'Not/AZone' })).toEqual({
      instant: '2026-06-11T15:00:00.000Z',
      timezone: 'UTC',
      local: '2026-06-11T15:00:00.000+00:00',
    });
  });

  it('falls back to UTC when the project zone is an offset form', () => {
    expect(resolve('2026-12-01T09:00', { projectTimezone: 'UTC+9' }).timezone).toBe('UTC');
  });
});

describe('rule 7: daylight saving', () => {
  describe('US spring forward, 2026-03-08 02:00 EST → 03:00 EDT (America/New_York)', () => {
    const saturdayNoon = new Date('2026-03-07T17:00:00.000Z');
    const options = { timezone: 'America/New_York', now: saturdayNoon };

    it('shifts a skipped wall time forward by the gap', () => {
      expect(resolve('tomorrow at 2:30am', options)).toEqual({
        instant: '2026-03-08T07:30:00.000Z',
        timezone: 'America/New_York',
        local: '2026-03-08T03:30:00.000-04:00',
      });
    });

    it('shifts a skipped zone-less ISO time the same way', () => {
      expect(resolve('2026-03-08T02:30', options).local).toBe('2026-03-08T03:30:00.000-04:00');
    });

    it('puts "tomorrow at 3pm" at 15:00 with the new offset', () => {
      expect(resolve('tomorrow at 3pm', options)).toEqual({
        instant: '2026-03-08T19:00:00.000Z',
        timezone: 'America/New_York',
        local: '2026-03-08T15:00:00.000-04:00',
      });
    });

    it('counts "in 2 hours" as two real hours across the change', () => {
      const now = new Date('2026-03-08T06:30:00.000Z'); // 01:30 EST
      expect(resolve('in 2 hours', { ...options, now })).toEqual({
        instant: '2026-03-08T08:30:00.000Z',
        timezone: 'America/New_York',
        local: '2026-03-08T04:30:00.000-04:00',
      });
    });

    it('puts "next monday at 9am" at 09:00 EDT from a Friday in EST', () => {
      const now = new Date('2026-03-06T15:00:00.000Z'); // Friday 10:00 EST
      expect(resolve('next monday at 9am', { ...options, now }).local).toBe('2026-03-09T09:00:00.000-04:00');
    });

    it('keeps the time of day for "in 3 days" across the change', () => {
      const now = new Date('2026-03-06T15:00:00.000Z'); // Friday 10:00 EST
      expect(resolve('in 3 days', { ...options, now })).toMatchObject({
        instant: '2026-03-09T14:00:00.000Z',
        local: '2026-03-09T10:00:00.000-04:00',
      });
    });
  });

  describe('US fall back, 2026-11-01 02:00 EDT → 01:00 EST (America/New_York)', () => {
    const saturdayNoon = new Date('2026-10-31T16:00:00.000Z');
    const options = { timezone: 'America/New_York', now: saturdayNoon };

    it('resolves a repeated wall time to the earlier instant (EDT)', () => {
      expect(resolve('tomorrow at 1:30am', options)).toEqual({
        instant: '2026-11-01T05:30:00.000Z',
        timezone: 'America/New_York',
        local: '2026-11-01T01:30:00.000-04:00',
      });
    });

    it('resolves a repeated zone-less ISO time to the earlier instant too', () => {
      expect(resolve('2026-11-01T01:30', options).instant).toBe('2026-11-01T05:30:00.000Z');
    });

    it('puts "tomorrow at 3pm" at 15:00 with the new offset', () => {
      expect(resolve('tomorrow at 3pm', options).local).toBe('2026-11-01T15:00:00.000-05:00');
    });

    it('counts "in 2 hours" as two real hours across the change', () => {
      const now = new Date('2026-11-01T05:30:00.000Z'); // the first 01:30, EDT
      expect(resolve('in 2 hours', { ...options, now })).toMatchObject({
        instant: '2026-11-01T07:30:00.000Z',
        local: '2026-11-01T02:30:00.000-05:00',
      });
    });
  });

  describe('EU changes, 2026-03-29 and 2026-10-25 (Europe/Berlin)', () => {
    it('shifts 02:30 on the spring-forward night to 03:30 CEST', () => {
      const now = new Date('2026-03-28T11:00:00.000Z');
      expect(resolve('tomorrow at 2:30am', { timezone: 'Europe/Berlin', now })).toEqual({
        instant: '2026-03-29T01:30:00.000Z',
        timezone: 'Europe/Berlin',
        local: '2026-03-29T03:30:00.000+02:00',
      });
    });

    it('resolves 02:30 on the fall-back night to the earlier instant (CEST)', () => {
      const now = new Date('2026-10-24T10:00:00.000Z');
      expect(resolve('tomorrow at 2:30am', { timezone: 'Europe/Berlin', now })).toEqual({
        instant: '2026-10-25T00:30:00.000Z',
        timezone: 'Europe/Berlin',
        local: '2026-10-25T02:30:00.000+02:00',
      });
    });

    it('counts "in 2 hours" as two real hours across the spring change', () => {
      const now = new Date('2026-03-29T00:30:00.000Z'); // 01:30 CET
      expect(resolve('in 2 hours', { timezone: 'Europe/Berlin', now }).local).toBe('2026-03-29T04:30:00.000+02:00');
    });

    it('puts "next monday at 9am" at 09:00 CEST from a Friday in CET', () => {
      const now = new Date('2026-03-27T11:00:00.000Z');
      expect(resolve('next monday at 9am', { timezone: 'Europe/Berlin', now })).toMatchObject({
        instant: '2026-03-30T07:00:00.000Z',
        local: '2026-03-30T09:00:00.000+02:00',
      });
    });
  });

  describe('half-hour changes (Australia/Lord_Howe: +10:30 ↔ +11)', () => {
    it('shifts a wall time in the 30-minute gap forward by 30 minutes', () => {
      const now = new Date('2026-10-03T02:00:00.000Z');
      expect(resolve('tomorrow at 2:15am', { timezone: 'Australia/Lord_Howe', now })).toMatchObject({
        instant: '2026-10-03T15:45:00.000Z',
        local: '2026-10-04T02:45:00.000+11:00',
      });
    });

    it('resolves a wall time in the 30-minute overlap to the earlier instant', () => {
      const now = new Date('2026-04-04T01:00:00.000Z');
      expect(resolve('tomorrow at 1:45am', { timezone: 'Australia/Lord_Howe', now })).toMatchObject({
        instant: '2026-04-04T14:45:00.000Z',
        local: '2026-04-05T01:45:00.000+11:00',
      });
    });
  });

  it('gives the local time the offset valid at that instant, not at now', () => {
    // now is in EDT (-04:00); December is EST (-05:00).
    expect(resolve('2026-12-01T09:00', { timezone: 'America/New_York' }).local).toBe('2026-12-01T09:00:00.000-05:00');
    expect(resolve('2026-07-01T09:00', { timezone: 'America/New_York' }).local).toBe('2026-07-01T09:00:00.000-04:00');
  });
});

describe('offsetLabel', () => {
  it.each([
    [0, 'UTC'],
    [540, 'UTC+9'],
    [330, 'UTC+5:30'],
    [-180, 'UTC-3'],
    [-210, 'UTC-3:30'],
    [765, 'UTC+12:45'],
  ])('labels %d minutes as %s', (minutes, label) => {
    expect(offsetLabel(minutes)).toBe(label);
  });
});

describe('isValidTimeZone', () => {
  it.each(['UTC', 'Europe/Berlin', 'America/New_York', 'Australia/Lord_Howe', 'Etc/GMT-9'])('accepts %j', (zone) => {
    expect(isValidTimeZone(zone)).toBe(true);
  });

  it.each(['', 'Mars/Olympus', 'UTC+9', 'UTC+09:00', '+09:00', '-03:00', '9'])('refuses %j', (zone) => {
    expect(isValidTimeZone(zone)).toBe(false);
  });
});

describe('parseIsoTimestamp', () => {
  it('reads an offset', () => {
    expect(parseIsoTimestamp('2026-12-01T09:00:00+09:00')?.toISOString()).toBe('2026-12-01T00:00:00.000Z');
  });

  it('reads a zone-less timestamp as UTC', () => {
    expect(parseIsoTimestamp('2026-12-01T09:00')?.toISOString()).toBe('2026-12-01T09:00:00.000Z');
  });

  it('reads a date alone as midnight UTC', () => {
    expect(parseIsoTimestamp('2026-12-01')?.toISOString()).toBe('2026-12-01T00:00:00.000Z');
  });

  it.each(['tomorrow at 3pm', 'in 2 hours', '2026-02-30T09:00', '2026-12-01T25:00', '2026-12-01T09:00+24:00', ''])(
    'gives undefined for %j',
    (text) => {
      expect(parseIsoTimestamp(text)).toBeUndefined();
    },
  );
});
