import { deliveryIdOf } from '../../../../shared/notifications/webhooks/fanout';
import type { ServiceEvent } from '../../../../shared/platform/core/events';

const event = { event: 'email.send', timestamp: '2026-11-27T01:41:15.101Z', project_id: 'p-1', is_test: false, data: { activity_id: 'a-1' } } as unknown as ServiceEvent;

describe('the webhook-id of a delivery', () => {
  it('is the same when the events queue hands the fan-out the same event again', () => {
    expect(deliveryIdOf(event, 'https://hooks.example.com/mail', 'live')).toBe(deliveryIdOf(structuredClone(event), 'https://hooks.example.com/mail', 'live'));
  });

  it('differs per URL, per slot and per event', () => {
    const id = deliveryIdOf(event, 'https://hooks.example.com/mail', 'live');
    expect(deliveryIdOf(event, 'https://hooks.example.com/other', 'live')).not.toBe(id);
    expect(deliveryIdOf(event, 'https://hooks.example.com/mail', 'dev')).not.toBe(id);
    expect(deliveryIdOf({ ...event, timestamp: '2026-11-27T01:41:15.102Z' } as ServiceEvent, 'https://hooks.example.com/mail', 'live')).not.toBe(id);
  });

  it('is the same for an email event republished by a redelivered job (new dispatch time, same event_timestamp)', () => {
    const sent = { ...event, data: { activity_id: 'a-1', event_timestamp: '2026-11-27T01:41:14.000Z' } } as ServiceEvent;
    const again = { ...sent, timestamp: '2026-11-27T01:41:45.000Z' } as ServiceEvent;
    expect(deliveryIdOf(again, 'https://hooks.example.com/mail', 'live')).toBe(deliveryIdOf(sent, 'https://hooks.example.com/mail', 'live'));
    const later = { ...sent, data: { ...sent.data, event_timestamp: '2026-11-27T01:41:15.000Z' } } as ServiceEvent;
    expect(deliveryIdOf(later, 'https://hooks.example.com/mail', 'live')).not.toBe(deliveryIdOf(sent, 'https://hooks.example.com/mail', 'live'));
  });

  it('has the msg_ form receivers see', () => {
    expect(deliveryIdOf(event, 'https://hooks.example.com/mail', 'live')).toMatch(/^msg_[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/);
  });
});
