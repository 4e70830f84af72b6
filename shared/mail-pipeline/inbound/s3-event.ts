import type { S3Event, S3EventRecord } from 'aws-lambda';
import type { InboundObject } from './handle-inbound';

/** Where the SES receipt rule puts each mail in the inbound bucket (the S3 action's object key prefix). */
export const INBOUND_PREFIX = 'inbound/';

/** The created objects of an S3 event; keys arrive URL-encoded, with `+` for spaces. */
export function createdObjects(event: S3Event): InboundObject[] {
  return (event.Records ?? [])
    .filter((r) => r.eventName?.startsWith('ObjectCreated:'))
    .map((r) => ({
      bucket: r.s3.bucket.name,
      key: decodeURIComponent(r.s3.object.key.replace(/\+/g, ' ')),
      size: r.s3.object.size,
      receivedAt: r.eventTime,
    }));
}

/** An S3 ObjectCreated:Put event for one object, shaped as S3 sends it (the local injection uses it). */
export function objectCreatedEvent(input: { bucket: string; key: string; size: number; region?: string; at?: Date }): S3Event {
  const at = input.at ?? new Date();
  const record: S3EventRecord = {
    eventVersion: '2.1',
    eventSource: 'aws:s3',
    awsRegion: input.region ?? 'us-east-1',
    eventTime: at.toISOString(),
    eventName: 'ObjectCreated:Put',
    userIdentity: { principalId: 'AWS:ses.amazonaws.com' },
    requestParameters: { sourceIPAddress: '127.0.0.1' },
    responseElements: { 'x-amz-request-id': 'local', 'x-amz-id-2': 'local' },
    s3: {
      s3SchemaVersion: '1.0',
      configurationId: 'inbound-mail',
      bucket: { name: input.bucket, ownerIdentity: { principalId: 'local' }, arn: `arn:aws:s3:::${input.bucket}` },
      object: {
        key: encodeURIComponent(input.key).replace(/%2F/g, '/').replace(/%20/g, '+'),
        size: input.size,
        eTag: '',
        sequencer: at.getTime().toString(16).toUpperCase(),
      },
    },
  };
  return { Records: [record] };
}
