import * as z from '../../platform/core/zod';
import type { Batch } from './batch';

/** A `fanout` queue message: expand chunk `chunk` of batch `batch_id`. */
export interface ChunkJob {
  v: 1;
  batch_id: string;
  project_id: string;
  chunk: number;
}

/** One recipient of a batch mail job, with its place in the batch (its activity id follows from it). */
export interface JobRecipient {
  index: number;
  email: string;
  name?: string;
  data?: Record<string, unknown>;
}

/** A `batch-send` queue message: several recipients of one batch, each sent and claimed on its own. */
export interface BatchSendJob {
  v: 1;
  batch_id: string;
  project_id: string;
  /** Set on a campaign wave's jobs: the send worker checks the campaign (cancelled, paused) once per job. */
  campaign_id?: string;
  recipients: JobRecipient[];
}

/** Recipients per batch mail job: one SQS message and one worker run serve this many mails. */
export const RECIPIENTS_PER_SEND_JOB = 50;

/** A job is cut earlier when its recipients' data would make the message larger than this; a recipient larger alone cannot be sent. */
export const MAX_JOB_BYTES = 192 * 1024;

const chunkJobSchema = z.object({ v: z.literal(1), batch_id: z.uuid(), project_id: z.string().check(z.minLength(1)), chunk: z.number().check(z.int(), z.nonnegative()) });

const batchSendJobSchema = z.object({
  v: z.literal(1),
  batch_id: z.uuid(),
  project_id: z.string().check(z.minLength(1)),
  campaign_id: z.optional(z.string().check(z.minLength(1))),
  recipients: z
    .array(
      z.object({
        index: z.number().check(z.int(), z.nonnegative()),
        email: z.string().check(z.minLength(3)),
        name: z.optional(z.string()),
        data: z.optional(z.record(z.string(), z.unknown())),
      }),
    )
    .check(z.minLength(1)),
});

/** Parses a `fanout` message; throws on anything else (it ends in the DLQ). */
export function parseChunkJob(body: string): ChunkJob {
  return chunkJobSchema.parse(JSON.parse(body)) as ChunkJob;
}

/** Parses a `batch-send` message; throws on anything else. */
export function parseBatchSendJob(body: string): BatchSendJob {
  return batchSendJobSchema.parse(JSON.parse(body)) as BatchSendJob;
}

/** Groups recipients into jobs of at most RECIPIENTS_PER_SEND_JOB, and under SQS's size with their data. */
export function groupSendJobs(head: { batch_id: string; project_id: string; campaign_id?: string }, recipients: JobRecipient[]): BatchSendJob[] {
  const jobs: BatchSendJob[] = [];
  let current: JobRecipient[] = [];
  let bytes = 0;
  for (const recipient of recipients) {
    const size = Buffer.byteLength(JSON.stringify(recipient)) + 1;
    if (current.length > 0 && (current.length >= RECIPIENTS_PER_SEND_JOB || bytes + size > MAX_JOB_BYTES)) {
      jobs.push({ v: 1, ...head, recipients: current });
      current = [];
      bytes = 0;
    }
    current.push(recipient);
    bytes += size;
  }
  if (current.length > 0) jobs.push({ v: 1, ...head, recipients: current });
  return jobs;
}

/** One fan-out message per chunk of the batch. */
export function chunkJobs(batch: Pick<Batch, 'id' | 'project_id' | 'chunk_count'>): ChunkJob[] {
  return Array.from({ length: batch.chunk_count }, (_, chunk) => ({ v: 1 as const, batch_id: batch.id, project_id: batch.project_id, chunk }));
}
