import { S3Client } from '@aws-sdk/client-s3';
import { S3BlobStore } from '../shared/platform/adapters/s3-blob-store';
import type { InboundDeps } from '../shared/mail-pipeline/inbound/handle-inbound';
import { services } from './services';

let inbound: { bucket: string; store: S3BlobStore } | undefined;

/**
 * The inbound bucket's blob store, built once per bucket. The services' store serves the payload
 * bucket; this one serves INBOUND_BUCKET (the payload bucket again in local mode, under `inbound/`).
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

/** The inbound function's dependencies: the services, and the inbound bucket with its store. */
export function inboundServices(): InboundDeps {
  const { bucket, store } = inboundStore();
  return { ...services(), inboundMail: store, inboundBucket: bucket };
}
