import { GetObjectCommand, PutObjectCommand, S3Client } from '@aws-sdk/client-s3';
import type { BlobStore } from '../ports';

/** Blob store over one S3 bucket (the payload bucket, whose objects expire by lifecycle rule). */
export class S3BlobStore implements BlobStore {
  private readonly bucketName: () => string;

  /** `bucket` may be given as a function, read at first use: only the functions that store payloads are told the bucket. */
  constructor(
    private readonly client: S3Client,
    bucket: string | (() => string),
  ) {
    this.bucketName = typeof bucket === 'function' ? bucket : () => bucket;
  }

  private get bucket(): string {
    return this.bucketName();
  }

  async put(key: string, body: Buffer): Promise<void> {
    await this.client.send(new PutObjectCommand({ Bucket: this.bucket, Key: key, Body: body }));
  }

  async get(key: string): Promise<Buffer> {
    const out = await this.client.send(new GetObjectCommand({ Bucket: this.bucket, Key: key }));
    if (!out.Body) throw new Error(`Empty object ${key}`);
    return Buffer.from(await out.Body.transformToByteArray());
  }
}
