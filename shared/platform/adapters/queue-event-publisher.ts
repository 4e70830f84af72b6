import type { Queue } from '../core/ports';
import type { EventPublisher, ServiceEvent } from '../core/events';

/** Publishes events as messages on the `events` queue. */
export class QueueEventPublisher implements EventPublisher {
  constructor(private readonly queue: Queue) {}

  async publish(event: ServiceEvent): Promise<void> {
    await this.queue.send('events', event);
  }
}
