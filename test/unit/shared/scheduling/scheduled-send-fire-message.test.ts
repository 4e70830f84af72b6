import { schedules } from '../../../../shared/platform/core/routes';
import {
  enqueueFire,
  fireDelaySeconds,
  isWithinLookahead,
  MAX_DELAY_SECONDS,
  parseFireMessage,
  SWEEP_LOOKAHEAD_SECONDS,
} from '../../../../shared/mail-pipeline/deferred-accept';
import type { Queue } from '../../../../shared/platform/core/ports';

const NOW = new Date('2030-01-01T09:00:00.000Z');
const at = (seconds: number) => new Date(NOW.getTime() + seconds * 1000);

describe('fireDelaySeconds', () => {
  test.each<[number, number]>([
    [10, 10],
    [0.2, 1],
    [9.001, 10],
    [899.5, 900],
    [900, 900],
    [901, 900],
    [86_400, 900],
  ])('a send due in %d s waits %d s (whole seconds, rounded up, at most 900)', (inSeconds, delay) => {
    expect(fireDelaySeconds(at(inSeconds), NOW)).toBe(delay);
  });

  test.each([0, -0.5, -30, -86_400])('a send due %d s from now (due or overdue) goes at once', (inSeconds) => {
    expect(fireDelaySeconds(at(inSeconds), NOW)).toBe(0);
  });

  test('never exceeds the SQS maximum', () => {
    expect(MAX_DELAY_SECONDS).toBe(900);
  });
});

describe('the sweep lookahead', () => {
  test('is one sweep interval plus a 15 s overlap', () => {
    expect(SWEEP_LOOKAHEAD_SECONDS).toBe(schedules['scheduled-sweep'].everySeconds + 15);
    expect(SWEEP_LOOKAHEAD_SECONDS).toBe(75);
  });

  test('covers sends due up to and including now + lookahead, and overdue ones', () => {
    expect(isWithinLookahead(at(-600), NOW)).toBe(true);
    expect(isWithinLookahead(at(10), NOW)).toBe(true);
    expect(isWithinLookahead(at(75), NOW)).toBe(true);
    expect(isWithinLookahead(at(75.001), NOW)).toBe(false);
    expect(isWithinLookahead(at(3600), NOW)).toBe(false);
  });
});

describe('the fire message', () => {
  test('round-trips through the queue body', () => {
    const body = JSON.stringify({ v: 1, id: 'abc', scheduled_for: '2030-01-01T09:00:00.000Z' });
    expect(parseFireMessage(body)).toEqual({ v: 1, id: 'abc', scheduled_for: '2030-01-01T09:00:00.000Z' });
  });

  test.each(['{}', '{"v":2,"id":"a","scheduled_for":"x"}', '{"v":1,"scheduled_for":"x"}', 'not json'])('refuses %s', (body) => {
    expect(() => parseFireMessage(body)).toThrow();
  });

  test('enqueueFire sends {v, id, scheduled_for} on the scheduled queue, delayed until the send is due', async () => {
    const sent: unknown[][] = [];
    const queue = { send: async (...args: unknown[]) => void sent.push(args) } as unknown as Queue;
    await enqueueFire(queue, { id: 'abc', scheduled_for: at(42).toISOString() }, NOW);
    expect(sent).toEqual([['scheduled', { v: 1, id: 'abc', scheduled_for: at(42).toISOString() }, { delaySeconds: 42 }]]);
  });
});
