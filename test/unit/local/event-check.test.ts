import { eventBreachOf, eventCheckingQueue, type EventBreach } from '../../../local/event-check';
import { webhookExamples } from '../../../composition/openapi/webhooks-section';
import { webhookPayloadSchemas } from '../../../shared/notifications/webhooks/webhook-payloads';
import type { Queue } from '../../../shared/platform/core/ports';

type Payload = { event: string; data: Record<string, unknown> } & Record<string, unknown>;
const example = (name: string) => structuredClone(webhookExamples[name]) as Payload;
const job = (event: unknown) => ({ v: 1, delivery_id: 'msg_6c1f5a0e-2b7d-4c39-9e4a-8f1d2c3b4a5e', project_id: 'p', url: 'https://hooks.example.com', slot: 'live', event, max_attempts: 5 });

describe('the event check: each event published is the payload of its name in the webhooks section', () => {
  it.each(Object.keys(webhookPayloadSchemas))('%s as documented passes, published or in a delivery job', (name) => {
    expect(eventBreachOf('events', example(name))).toBeUndefined();
    expect(eventBreachOf('webhooks', job(example(name)))).toBeUndefined();
  });

  it('finds a payload that gains a field', () => {
    const gained = example('email.complaint');
    gained.data.complaint_sub_type = 'abuse';
    expect(eventBreachOf('events', gained)).toEqual({ event: 'email.complaint', queue: 'events', problem: expect.stringMatching(/^email\.complaint: data: Unrecognized key: "complaint_sub_type"/) });
    const enveloped = { ...example('domain.verified'), is_test: false };
    expect(eventBreachOf('webhooks', job(enveloped))).toEqual({ event: 'domain.verified', queue: 'webhooks', problem: expect.stringMatching(/Unrecognized key: "is_test"/) });
  });

  it('finds a payload that lacks a field, also one whose publisher left it undefined (absent from the JSON the receiver reads)', () => {
    const { url_clicked: _, ...lacking } = example('email.click').data;
    expect(eventBreachOf('events', { ...example('email.click'), data: lacking })?.problem).toMatch(/data\.url_clicked/);
    const undefinedField = example('email.bounce');
    undefinedField.data.bounce_subtype = undefined;
    expect(eventBreachOf('events', undefinedField)?.problem).toMatch(/data\.bounce_subtype/);
  });

  it('reads the event as its receiver does, from its JSON', () => {
    const dated = { ...example('suppression.removed'), timestamp: new Date('2026-11-26T09:30:02.114Z') };
    expect(eventBreachOf('events', dated)).toBeUndefined();
  });

  it('counts an event with no schema as a breach', () => {
    expect(eventBreachOf('events', { event: 'campaign.resumed', timestamp: '2026-11-26T09:30:02.114Z', project_id: 'p', data: {} })).toEqual({
      event: 'campaign.resumed',
      queue: 'events',
      problem: 'Unknown event "campaign.resumed"',
    });
    expect(eventBreachOf('webhooks', { v: 1 })).toEqual({ event: 'undefined', queue: 'webhooks', problem: 'Unknown event undefined' });
  });

  it('leaves the messages of other queues alone', () => {
    expect(eventBreachOf('send', { activity_id: 'a' })).toBeUndefined();
  });
});

describe('the event-checking queue', () => {
  const sent: [string, unknown][] = [];
  const inner: Queue = {
    send: async (name, body) => void sent.push([name, body]),
    sendBatch: async (name, bodies) => void bodies.forEach((b) => sent.push([name, b])),
    changeVisibility: async () => undefined,
  };

  it('reports each breach of a send or a batch and sends every message all the same', async () => {
    const breaches: EventBreach[] = [];
    const queue = eventCheckingQueue(inner, (b) => breaches.push(b));
    const bad = { ...example('email.open'), opened_at: 'now' };
    await queue.send('events', bad);
    await queue.sendBatch('webhooks', [job(example('email.open')), job(bad)]);
    await queue.send('send', { not: 'an event' });
    expect(breaches.map((b) => [b.event, b.queue])).toEqual([
      ['email.open', 'events'],
      ['email.open', 'webhooks'],
    ]);
    expect(sent.map(([name]) => name)).toEqual(['events', 'webhooks', 'webhooks', 'send']);
  });
});
