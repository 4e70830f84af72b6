import type { S3Event } from 'aws-lambda';
import { createdObjects, objectCreatedEvent } from '../../../../shared/mail-pipeline/inbound/s3-event';

describe('S3 ObjectCreated events of the inbound bucket', () => {
  test('the event the local injection builds reads back as the same object', () => {
    const at = new Date('2030-01-01T00:00:00.000Z');
    const event = objectCreatedEvent({ bucket: 'b', key: 'inbound/a b+c.eml', size: 42, at });
    expect(event.Records[0].s3.object.key).toBe('inbound/a+b%2Bc.eml');
    expect(createdObjects(event)).toEqual([{ bucket: 'b', key: 'inbound/a b+c.eml', size: 42, receivedAt: at.toISOString() }]);
  });

  test('keys of SES-stored mail (message ids) pass unchanged; other event kinds are ignored', () => {
    const event = objectCreatedEvent({ bucket: 'b', key: 'inbound/0100018c2f0example', size: 1 });
    const removed = { ...event.Records[0], eventName: 'ObjectRemoved:Delete' };
    expect(createdObjects({ Records: [...event.Records, removed] } as S3Event).map((o) => o.key)).toEqual(['inbound/0100018c2f0example']);
  });
});
