import { DateTime } from 'luxon';
import { momentWithinDay, calendarDate } from '../../../../shared/marketing/automations/engine/date-moments';
import { afterDuration, leadZone, nextTimeOfDay } from '../../../../shared/marketing/automations/engine/wait-times';
import { delayUntil, withinQueueDelay } from '../../../../shared/marketing/automations/engine/step-queue';
import { effectIdOf, runIdOf, uuidv5 } from '../../../../shared/marketing/automations/ids';
import { AutomationCounterBatch } from '../../../../shared/marketing/automations/run-counters';
import { AutomationStepTally } from '../../../../shared/mail-pipeline/delivery/automation-tally';

describe('derived ids', () => {
  it('are version-5 UUIDs, the same for the same name and different for another', () => {
    expect(uuidv5('a')).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-5[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(runIdOf('auto', 'lead', 'key')).toBe(runIdOf('auto', 'lead', 'key'));
    expect(runIdOf('auto', 'lead', 'key')).not.toBe(runIdOf('auto', 'lead', 'other'));
    expect(effectIdOf('run', 1)).not.toBe(effectIdOf('run', 2));
  });
});

describe('wait: a duration from now', () => {
  it('adds days, hours and minutes', () => {
    expect(afterDuration(new Date('2030-01-01T00:00:00Z'), { days: 2, hours: 3, minutes: 4 }).toISOString()).toBe('2030-01-03T03:04:00.000Z');
  });
});

describe('wait_until: the next time of day in the lead\'s zone', () => {
  it('takes the lead\'s zone, else the project\'s, else UTC', () => {
    expect(leadZone({ timezone: 'Asia/Tokyo' }, 'Europe/Paris')).toBe('Asia/Tokyo');
    expect(leadZone({ timezone: 'UTC+9' }, 'Europe/Paris')).toBe('Europe/Paris');
    expect(leadZone({ tz: 'Asia/Tokyo' }, undefined, 'tz')).toBe('Asia/Tokyo');
    expect(leadZone({}, undefined)).toBe('UTC');
  });

  it('is strictly after now: today when 09:00 is still ahead, else tomorrow', () => {
    const zone = 'America/New_York';
    expect(nextTimeOfDay(new Date('2030-03-05T13:00:00Z'), { time: '09:00' }, zone).toISOString()).toBe('2030-03-05T14:00:00.000Z');
    expect(nextTimeOfDay(new Date('2030-03-05T14:00:00Z'), { time: '09:00' }, zone).toISOString()).toBe('2030-03-06T14:00:00.000Z');
  });

  it('keeps 09:00 local across a daylight saving change', () => {
    // New York moves to summer time on 2030-03-10.
    const at = nextTimeOfDay(new Date('2030-03-09T15:00:00Z'), { time: '09:00' }, 'America/New_York');
    expect(DateTime.fromJSDate(at).setZone('America/New_York').toFormat('yyyy-MM-dd HH:mm')).toBe('2030-03-10 09:00');
  });

  it('skips to an allowed weekday', () => {
    // 2030-03-08 is a Friday: Monday only gives 2030-03-11.
    const at = nextTimeOfDay(new Date('2030-03-08T08:00:00Z'), { time: '09:00', weekdays: [1] }, 'UTC');
    expect(at.toISOString()).toBe('2030-03-11T09:00:00.000Z');
  });
});

describe('the date trigger\'s moment within a day', () => {
  const renewal = { type: 'date', attribute: 'renewal_date', offset_days: -3, at: '09:00', yearly: false } as const;

  it('is 3 days before the date at 09:00 in the lead\'s zone', () => {
    expect(momentWithinDay(renewal, '2030-06-15', 'Europe/Paris', '2030-06-12')).toEqual({ at: new Date('2030-06-12T07:00:00.000Z'), date: '2030-06-12' });
    expect(momentWithinDay(renewal, '2030-06-15', 'Europe/Paris', '2030-06-13')).toBeUndefined();
  });

  it('falls on the UTC day its local time falls on', () => {
    // 09:00 in Auckland (UTC+12) on 2030-06-12 is 21:00 UTC on 2030-06-11.
    expect(momentWithinDay(renewal, '2030-06-15', 'Pacific/Auckland', '2030-06-11')).toEqual({ at: new Date('2030-06-11T21:00:00.000Z'), date: '2030-06-12' });
    expect(momentWithinDay(renewal, '2030-06-15', 'Pacific/Auckland', '2030-06-12')).toBeUndefined();
  });

  it('repeats yearly on the anniversary (February 29 on February 28)', () => {
    const birthday = { type: 'date', attribute: 'birthday', offset_days: 0, at: '10:00', yearly: true } as const;
    expect(momentWithinDay(birthday, '1990-07-04', 'UTC', '2031-07-04')?.date).toBe('2031-07-04');
    expect(momentWithinDay(birthday, '2000-02-29', 'UTC', '2031-02-28')?.date).toBe('2031-02-28');
    expect(momentWithinDay(birthday, 'not a date', 'UTC', '2031-07-04')).toBeUndefined();
    expect(calendarDate('2031-02-30')).toBeUndefined();
  });
});

describe('short and long waits', () => {
  const now = new Date('2030-01-01T00:00:00Z');
  it('a wait within 15 minutes is a delayed message; longer ones are the due index\'s', () => {
    expect(withinQueueDelay(new Date(now.getTime() + 900_000), now)).toBe(true);
    expect(withinQueueDelay(new Date(now.getTime() + 901_000), now)).toBe(false);
    expect(delayUntil(new Date(now.getTime() - 5_000), now)).toBe(0);
    expect(delayUntil(new Date(now.getTime() + 10_500), now)).toBe(11);
  });
});

describe('counters: tallied per invocation', () => {
  it('gathers run totals and step figures per automation', () => {
    const tally = new AutomationCounterBatch();
    tally.run('a1', 'entered');
    tally.run('a1', 'entered');
    tally.run('a1', 'waiting', -1);
    tally.step('a1', 'welcome', 'sent');
    expect(tally.countsOf('a1')).toEqual({ r_entered: 2, r_waiting: -1, s_sent_welcome: 1 });
  });

  it('the pipeline\'s step tally keeps delivered, opened and clicked of well-named steps only', () => {
    const tally = new AutomationStepTally();
    tally.add('a1/welcome', 'delivered');
    tally.add('a1/welcome', 'hard_bounced');
    tally.add('malformed', 'opened');
    expect(tally.empty).toBe(false);
  });
});
