import { randomUUID } from 'node:crypto';
import type { S3Event } from 'aws-lambda';
import type { BlobStore } from '../../platform/core/ports';
import { INBOUND_PREFIX, objectCreatedEvent } from './s3-event';

/** A request to a local-only route, as the local API server hands it over. */
export interface LocalRequest {
  body: Buffer;
  headers: Record<string, string>;
  query: Record<string, string>;
}

export interface LocalAnswer {
  status: number;
  body: unknown;
}

const MIME_TYPES = /^(message\/rfc822|text\/plain)\s*(;|$)/i;

/**
 * `POST /_local/inbound` of the local cloud (never in AWS, never in the route table): does what the
 * SES receipt rule and the bucket notification do. The raw MIME body (content type
 * `message/rfc822` or `text/plain`) is stored as `inbound/<uuid>.eml` in the inbound bucket, then
 * the inbound function is invoked with an S3 ObjectCreated event for it; the answer is 202 with
 * the object and what the function returned.
 *
 * With an empty body and `?key=inbound/<...>`, the event of an object already stored is delivered
 * again, as S3 may do: the function must then publish nothing new.
 */
export function inboundInjection(inbound: () => { bucket: string; store: BlobStore }, invoke: (event: S3Event) => Promise<unknown>) {
  return async (request: LocalRequest): Promise<LocalAnswer> => {
    const { bucket, store } = inbound();
    let key: string;
    let size: number;
    if (request.body.length === 0) {
      const again = request.query.key;
      if (!again?.startsWith(INBOUND_PREFIX)) return { status: 400, body: { error: 'Send a raw MIME message as the body, or ?key=inbound/... to redeliver a stored one' } };
      key = again;
      try {
        size = (await store.get(key)).length;
      } catch {
        return { status: 404, body: { error: `No object ${key}` } };
      }
    } else {
      if (!MIME_TYPES.test(request.headers['content-type'] ?? '')) {
        return { status: 415, body: { error: 'Content-Type must be message/rfc822 or text/plain' } };
      }
      key = `${INBOUND_PREFIX}${randomUUID()}.eml`;
      size = request.body.length;
      await store.put(key, request.body);
    }
    const result = await invoke(objectCreatedEvent({ bucket, key, size }));
    return { status: 202, body: { bucket, key, size, result } };
  };
}
