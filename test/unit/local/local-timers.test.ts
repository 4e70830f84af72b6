import { LocalTimers } from '../../../local/local-timers';
import type { Queue } from '../../../shared/platform/core/ports';

/** The local cloud's one-time schedules (EventBridge Scheduler's, emulated in process). */
describe('local one-time timers', () => {
  beforeEach(() => jest.useFakeTimers({ now: new Date('2026-03-02T09:00:00.000Z') }));
  afterEach(() => jest.useRealTimers());

  const recordingQueue = () => {
    const sent: [string, unknown][] = [];
    const queue = { send: async (name: string, body: unknown) => void sent.push([name, body]) } as unknown as Queue;
    return { sent, queue };
  };

  test('send the message to the queue at its time, not before', async () => {
    const { sent, queue } = recordingQueue();
    const timers = new LocalTimers(() => queue);
    await timers.fireAt('campaign-c1-step-0', new Date('2026-03-02T12:00:00.000Z'), 'campaigns', { step: 0 });
    jest.advanceTimersByTime(3 * 3600_000 - 1);
    expect(sent).toEqual([]);
    expect(timers.names()).toEqual(['campaign-c1-step-0']);
    jest.advanceTimersByTime(1);
    expect(sent).toEqual([['campaigns', { step: 0 }]]);
    expect(timers.names()).toEqual([]);
  });

  test('a name set twice is one timer', async () => {
    const { sent, queue } = recordingQueue();
    const timers = new LocalTimers(() => queue);
    const at = new Date('2026-03-02T09:00:10.000Z');
    await timers.fireAt('t', at, 'campaigns', 1);
    await timers.fireAt('t', at, 'campaigns', 1);
    jest.advanceTimersByTime(10_000);
    expect(sent).toHaveLength(1);
  });

  test('stop forgets every timer', async () => {
    const { sent, queue } = recordingQueue();
    const timers = new LocalTimers(() => queue);
    await timers.fireAt('t', new Date('2026-03-02T09:00:10.000Z'), 'campaigns', 1);
    timers.stop();
    jest.advanceTimersByTime(60_000);
    expect(sent).toEqual([]);
  });
});
