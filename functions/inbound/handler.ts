import { S3Client } from '@aws-sdk/client-s3';
import type { S3Event } from 'aws-lambda';
import { S3BlobStore } from '../../shared/adapters/s3-blob-store';
import { services } from '../../composition/services';
import { handleInboundObject, type InboundResult } from '../../shared/inbound/handle-inbound';
import { createdObjects } from '../../shared/inbound/s3-event';
import { lambdaHandler } from '../../shared/lambda-handler';

let inbound: { bucket: string; store: S3BlobStore } | undefined;

/**
 * The inbound bucket's blob store, built once. The container's store serves the payload bucket;
 * this one serves INBOUND_BUCKET (the payload bucket again in local mode, under `inbound/`).
 */
export function inboundStore(): { bucket: string; store: S3BlobStore } {
  const cfg = services().config;
  const bucket = cfg.INBOUND_BUCKET ?? cfg.PAYLOAD_BUCKET;
  if (inbound?.bucket !== bucket) {
    const client = new S3Client({
      forcePathStyle: cfg.S3_FORCE_PATH_STYLE === 'true',
      requestChecksumCalculation: 'WHEN_REQUIRED',
      responseChecksumValidation: 'WHEN_REQUIRED',
    });
    inbound = { bucket, store: new S3BlobStore(client, bucket) };
  }
  return inbound;
}

/**
 * Inbound replies: invoked by the inbound bucket's ObjectCreated notification (prefix `inbound/`)
 * for each mail the SES receipt rule stores, and locally by `POST /_local/inbound` with the same
 * event. An error fails the invocation, and Lambda's asynchronous retries redeliver the event; the
 * per-object marker keeps a redelivery from publishing twice.
 */
export const handler = lambdaHandler(async (event: S3Event): Promise<{ results: InboundResult[] }> => {
  const { bucket, store } = inboundStore();
  const deps = { ...services(), inboundMail: store, inboundBucket: bucket };
  const results: InboundResult[] = [];
  for (const object of createdObjects(event)) results.push(await handleInboundObject(deps, object));
  return { results };
});
