import type { Queue } from '../shared/platform/core/ports';
import type { QueueName } from '../shared/platform/core/queues';
import { webhookPayloadProblem } from '../shared/notifications/webhooks/webhook-payloads';

/** A published event that is not the payload its name has in the OpenAPI document's `webhooks` section (or has no entry there). */
export interface EventBreach {
  /** The event's name (`email.open`, ...), as it was published. */
  readonly event: string;
  /** Where it was sent: the events queue (every publisher) or the webhooks queue (a delivery job: the fan-out's, an automation's webhook step, a redelivery). */
  readonly queue: 'events' | 'webhooks';
  readonly problem: string;
}

/**
 * Checks one message sent to the events or webhooks queue (the tests' event contract check, the
 * counterpart of answer-check.ts for what the service POSTs): its event, as the receiver reads it
 * (JSON, so an undefined field is absent), must pass the payload schema of its name
 * (shared/notifications/webhooks/webhook-payloads.ts, from which the document's `webhooks` section
 * and the client's types are made). An event with no schema is a breach too. Other queues: undefined.
 */
export function eventBreachOf(queue: QueueName, body: unknown): EventBreach | undefined {
  if (queue !== 'events' && queue !== 'webhooks') return undefined;
  // A delivery job carries its event; the events queue carries the event itself.
  const event: unknown = queue === 'webhooks' ? (body as { event?: unknown } | null)?.event : body;
  const received: unknown = event === undefined ? undefined : JSON.parse(JSON.stringify(event));
  const problem = webhookPayloadProblem(received);
  if (!problem) return undefined;
  const name = (received as { event?: unknown } | null | undefined)?.event;
  return { event: typeof name === 'string' ? name : String(JSON.stringify(name)), queue, problem };
}

/**
 * The queue port with every event sent to the events or webhooks queue checked before it is sent;
 * a breach goes to `onBreach` and the message is sent all the same, so the run goes on as it would
 * and the breach fails the test file when its cloud stops.
 */
export function eventCheckingQueue(queue: Queue, onBreach: (breach: EventBreach) => void): Queue {
  const check = (name: QueueName, body: unknown) => {
    const breach = eventBreachOf(name, body);
    if (breach) onBreach(breach);
  };
  return {
    send: async (name, body, options) => {
      check(name, body);
      return queue.send(name, body, options);
    },
    sendBatch: async (name, bodies, options) => {
      for (const body of bodies) check(name, body);
      return queue.sendBatch(name, bodies, options);
    },
    changeVisibility: (name, receiptHandle, seconds) => queue.changeVisibility(name, receiptHandle, seconds),
  };
}
