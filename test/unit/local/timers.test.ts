import { startTimers } from '../../../local/timers';

describe('local timers (the local EventBridge Scheduler)', () => {
  beforeEach(() => jest.useFakeTimers());
  afterEach(() => jest.useRealTimers());

  test('each job runs every everySeconds with a scheduled-event payload', async () => {
    const calls: unknown[] = [];
    const timers = startTimers([{ name: 'sweep', schedule: { entry: 'x', everySeconds: 30 }, handler: async (event) => void calls.push(event) }]);
    await jest.advanceTimersByTimeAsync(95_000);
    expect(calls).toHaveLength(3);
    expect(calls[0]).toMatchObject({ source: 'local.scheduler', detail: { schedule: 'sweep' } });
    await timers.stop();
    await jest.advanceTimersByTimeAsync(60_000);
    expect(calls).toHaveLength(3);
  });

  test('a run still going when the next tick comes is not overlapped', async () => {
    let running = 0;
    let maxRunning = 0;
    const timers = startTimers([
      {
        name: 'slow',
        schedule: { entry: 'x', everySeconds: 1 },
        handler: async () => {
          running++;
          maxRunning = Math.max(maxRunning, running);
          await new Promise((r) => setTimeout(r, 3_500));
          running--;
        },
      },
    ]);
    await jest.advanceTimersByTimeAsync(10_000);
    expect(maxRunning).toBe(1);
    // Stopping waits for the run in flight, whose own timer must still be let run.
    const stopped = timers.stop();
    await jest.advanceTimersByTimeAsync(5_000);
    await stopped;
  });

  test('a failing run is reported and the timer keeps going', async () => {
    const errors: unknown[] = [];
    let calls = 0;
    const timers = startTimers(
      [{ name: 'flaky', schedule: { entry: 'x', everySeconds: 1 }, handler: async () => Promise.reject(new Error(`boom ${++calls}`)) }],
      (e) => errors.push(e),
    );
    await jest.advanceTimersByTimeAsync(3_000);
    expect(calls).toBe(3);
    expect(errors).toHaveLength(3);
    await timers.stop();
  });
});
