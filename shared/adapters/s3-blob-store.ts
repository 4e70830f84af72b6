import { GetObjectCommand, HeadObjectCommand, PutObjectCommand, S3Client } from '@aws-sdk/client-s3';
import { getSignedUrl } from '@aws-sdk/s3-request-presigner';
import type { FileStore } from '../ports';

/** Blob store over one S3 bucket (the payload bucket, whose objects expire by lifecycle rule). */
export class S3BlobStore implements FileStore {
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

  async size(key: string): Promise<number | undefined> {
    try {
      const out = await this.client.send(new HeadObjectCommand({ Bucket: this.bucket, Key: key }));
      return out.ContentLength ?? 0;
    } catch (error) {
      const e = error as { name?: string; $metadata?: { httpStatusCode?: number } };
      if (e.name === 'NotFound' || e.name === 'NoSuchKey' || e.$metadata?.httpStatusCode === 404) return undefined;
      throw error;
    }
  }

  async readFrom(key: string, offset: number): Promise<NodeJS.ReadableStream> {
    const out = await this.client.send(new GetObjectCommand({ Bucket: this.bucket, Key: key, Range: offset > 0 ? `bytes=${offset}-` : undefined }));
    if (!out.Body) throw new Error(`Empty object ${key}`);
    // In Node the SDK's body is an http.IncomingMessage, a Readable.
    return out.Body as NodeJS.ReadableStream;
  }

  async uploadUrl(key: string, expiresInSeconds: number): Promise<string> {
    return getSignedUrl(this.client, new PutObjectCommand({ Bucket: this.bucket, Key: key }), { expiresIn: expiresInSeconds });
  }
}
