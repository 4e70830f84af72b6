import {
  CompleteMultipartUploadCommand,
  CreateMultipartUploadCommand,
  GetObjectCommand,
  HeadObjectCommand,
  PutObjectCommand,
  S3Client,
  UploadPartCommand,
} from '@aws-sdk/client-s3';
import { getSignedUrl } from '@aws-sdk/s3-request-presigner';
import type { FileStore } from '../core/ports';

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

  async downloadUrl(key: string, expiresInSeconds: number, filename: string): Promise<string> {
    const disposition = `attachment; filename="${filename.replace(/[^\w.-]/g, '_')}"`;
    return getSignedUrl(this.client, new GetObjectCommand({ Bucket: this.bucket, Key: key, ResponseContentDisposition: disposition }), { expiresIn: expiresInSeconds });
  }

  async startUpload(key: string, contentType: string): Promise<string> {
    const out = await this.client.send(new CreateMultipartUploadCommand({ Bucket: this.bucket, Key: key, ContentType: contentType }));
    if (!out.UploadId) throw new Error(`No upload id for ${key}`);
    return out.UploadId;
  }

  async uploadPart(key: string, uploadId: string, partNumber: number, body: Buffer): Promise<string> {
    const out = await this.client.send(new UploadPartCommand({ Bucket: this.bucket, Key: key, UploadId: uploadId, PartNumber: partNumber, Body: body }));
    if (!out.ETag) throw new Error(`No ETag for part ${partNumber} of ${key}`);
    return out.ETag;
  }

  async completeUpload(key: string, uploadId: string, parts: readonly { partNumber: number; etag: string }[]): Promise<void> {
    await this.client.send(
      new CompleteMultipartUploadCommand({
        Bucket: this.bucket,
        Key: key,
        UploadId: uploadId,
        MultipartUpload: { Parts: parts.map((p) => ({ PartNumber: p.partNumber, ETag: p.etag })) },
      }),
    );
  }
}
