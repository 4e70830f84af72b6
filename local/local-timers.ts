import type { QueueName } from '../shared/platform/core/queues';
import type { Queue, Timers } from '../shared/platform/core/ports';

/** setTimeout's longest wait (about 24.8 days); a longer timer waits in steps. */
const MAX_TIMEOUT_MS = 2 ** 31 - 1;

/**
 * The local EventBridge Scheduler's one-time schedules: an in-process timer that sends the message
 * to the queue at its time. Named like a schedule, so setting a name twice sets one timer. Timers
 * live in this process: a restart of `npm start` forgets them (docs/campaigns.md).
 */
export class LocalTimers implements Timers {
  private readonly pending = new Map<string, NodeJS.Timeout>();

  constructor(
    private readonly queue: () => Queue,
    private readonly onError: (e: unknown) => void = console.error,
  ) {}

  async fireAt(name: string, at: Date, queue: QueueName, body: unknown): Promise<void> {
    if (this.pending.has(name)) return;
    const arm = () => {
      const wait = Math.max(0, at.getTime() - Date.now());
      const handle = setTimeout(() => {
        if (wait > MAX_TIMEOUT_MS) return arm();
        this.pending.delete(name);
        this.queue().send(queue, body).catch(this.onError);
      }, Math.min(wait, MAX_TIMEOUT_MS));
      handle.unref();
      this.pending.set(name, handle);
    };
    arm();
  }

  /** Names of the timers not fired yet. */
  names(): string[] {
    return [...this.pending.keys()];
  }

  /** Forgets every timer (the local cloud's stop). */
  stop(): void {
    for (const handle of this.pending.values()) clearTimeout(handle);
    this.pending.clear();
  }
}
