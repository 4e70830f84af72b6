import * as z from '../platform/core/zod';
import type { BlobStore } from '../platform/core/ports';

/** Everything the send worker needs to build the mail; travels in the queue message or, when large, in S3. */
export interface SendPayload {
  from_email: string;
  from_name?: string;
  to: string[];
  cc: string[];
  bcc: string[];
  subject: string;
  html: string;
  text?: string;
  attachments: { filename: string; url?: string; content?: string; contentType?: string }[];
  /** Extra MIME headers (List-Unsubscribe, List-Unsubscribe-Post of template sends). */
  headers?: Record<string, string>;
  /** Links that tracking must leave as they are (unsubscribe, view in browser). */
  untracked_links?: string[];
  /** Reply-To instead of the per-activity reply token (template sends answer to the sender). */
  reply_to?: string;
}

/** One send-queue message: one activity, one attempt. */
export interface SendJob {
  v: 1;
  activity_id: string;
  project_id: string;
  /** 1 for the first try; each scheduled retry sends a new message with the next number. */
  attempt: number;
  payload?: SendPayload;
  /** Where the payload is when it was too large for the message. */
  payload_key?: string;
  /**
   * The API stored the mail's body at accept, so the worker claims on the record (claimQueuedSend);
   * absent (a batch's mail), the claim writes the body.
   */
  body_stored?: true;
}

/** Payloads above this go to S3: SQS bills every 64 KB and caps a message at 256 KB on older setups. */
export const INLINE_PAYLOAD_LIMIT_BYTES = 192 * 1024;

const payloadSchema = z.object({
  from_email: z.string(),
  from_name: z.optional(z.string()),
  to: z.array(z.string()),
  cc: z.array(z.string()),
  bcc: z.array(z.string()),
  subject: z.string(),
  html: z.string(),
  text: z.optional(z.string()),
  attachments: z.array(
    z.object({ filename: z.string(), url: z.optional(z.string()), content: z.optional(z.string()), contentType: z.optional(z.string()) }),
  ),
  headers: z.optional(z.record(z.string(), z.string())),
  untracked_links: z.optional(z.array(z.string())),
  reply_to: z.optional(z.string()),
});

const jobSchema = z.object({
  v: z.literal(1),
  activity_id: z.uuid(),
  project_id: z.string(),
  attempt: z.number().check(z.int(), z.positive()),
  payload: z.optional(payloadSchema),
  payload_key: z.optional(z.string()),
  body_stored: z.optional(z.literal(true)),
});

/** Builds the queue message, moving the payload to the blob store when it is too large to travel inline. */
export async function packSendJob(
  blobs: BlobStore,
  head: Omit<SendJob, 'payload' | 'payload_key' | 'v'>,
  payload: SendPayload,
): Promise<SendJob> {
  const inline: SendJob = { v: 1, ...head, payload };
  const json = JSON.stringify(inline);
  if (Buffer.byteLength(json) <= INLINE_PAYLOAD_LIMIT_BYTES) return inline;
  const key = `send-payloads/${head.project_id}/${head.activity_id}.json`;
  await blobs.put(key, Buffer.from(JSON.stringify(payload)));
  return { v: 1, ...head, payload_key: key };
}

/** Parses a queue message body; throws on anything that is not a send job. */
export function parseSendJob(body: string): SendJob {
  return jobSchema.parse(JSON.parse(body)) as SendJob;
}

/** The job's payload, fetched from the blob store if it was moved there. */
export async function loadPayload(blobs: BlobStore, job: SendJob): Promise<SendPayload> {
  if (job.payload) return job.payload;
  if (!job.payload_key) throw new Error(`Send job ${job.activity_id} has no payload`);
  return payloadSchema.parse(JSON.parse((await blobs.get(job.payload_key)).toString('utf8'))) as SendPayload;
}
