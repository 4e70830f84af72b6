import { FetchError, type Fetcher } from '../platform/core/ports';
import { RetryLaterError } from '../platform/queue-worker/batch-handler';
import { AttachmentMemory, AttachmentMemoryFull } from './attachment-memory';
import { SEND_LIMITS } from './limits';
import type { SendPayload } from './job';

/** An attachment that cannot be used: the send fails for good with `attachment_error`. */
export class AttachmentError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'AttachmentError';
  }
}

/** An attachment ready for the MIME message. */
export interface ResolvedAttachment {
  filename: string;
  content: Buffer;
  contentType?: string;
}

/** The attachment bytes of this process, shared by the mails it sends at the same time. */
const processMemory = new AttachmentMemory(SEND_LIMITS.attachmentMemoryBytes);

/**
 * Decodes or downloads every attachment, enforcing 10 MB each and 10 MB in total (part 8). URLs are
 * fetched a few at a time, each within its own deadline and all within the mail's, and a download
 * stops as soon as the mail's total passes 10 MB. A URL that does not answer in time is unreachable
 * (AttachmentError: the send fails, as part 3 says); a process already holding its share of
 * attachment bytes retries the mail later (RetryLaterError). Call `release` once the mail is sent.
 */
export async function resolveAttachments(
  fetcher: Fetcher,
  attachments: SendPayload['attachments'],
  options: { memory?: AttachmentMemory; deadlineMs?: number } = {},
): Promise<{ attachments: ResolvedAttachment[]; release(): void }> {
  const lease = (options.memory ?? processMemory).lease();
  const deadlineMs = options.deadlineMs ?? SEND_LIMITS.attachmentFetchesDeadlineMs;
  const mailDeadline = AbortSignal.timeout(deadlineMs);
  // Stops the mail's other downloads at its first failure.
  const failed = new AbortController();
  const signal = AbortSignal.any([mailDeadline, failed.signal]);
  let total = 0;
  const count = (bytes: number) => {
    total += bytes;
    if (total > SEND_LIMITS.attachmentTotalBytes) throw new AttachmentError('Attachments exceed 10 MB in total');
  };

  const resolveOne = async (a: SendPayload['attachments'][number]): Promise<ResolvedAttachment> => {
    if (a.content !== undefined) {
      const content = Buffer.from(a.content, 'base64');
      if (content.length > SEND_LIMITS.attachmentBytes) throw new AttachmentError(`Attachment ${a.filename} exceeds 10 MB`);
      count(content.length);
      return { filename: a.filename, content, contentType: a.contentType };
    }
    try {
      const fetched = await fetcher.fetch(a.url as string, {
        maxBytes: SEND_LIMITS.attachmentBytes,
        timeoutMs: SEND_LIMITS.attachmentFetchTimeoutMs,
        signal,
        onBytes: (bytes) => {
          count(bytes);
          lease.take(bytes);
        },
      });
      return { filename: a.filename, content: fetched.body, contentType: a.contentType ?? fetched.contentType?.split(';')[0] };
    } catch (error) {
      if (error instanceof AttachmentError || error instanceof AttachmentMemoryFull) throw error;
      if (mailDeadline.aborted) {
        throw new AttachmentError(`Attachment ${a.filename} could not be fetched: the mail's attachments took longer than ${deadlineMs / 1000} s`, { cause: error });
      }
      const reason = error instanceof FetchError ? error.message : (error as Error).message;
      throw new AttachmentError(`Attachment ${a.filename} could not be fetched: ${reason}`, { cause: error });
    }
  };

  try {
    const resolved = await mapBounded(attachments, SEND_LIMITS.attachmentFetchConcurrency, async (a) => {
      try {
        return await resolveOne(a);
      } catch (error) {
        if (!failed.signal.aborted) failed.abort(error);
        throw error;
      }
    });
    return { attachments: resolved, release: lease.release };
  } catch (error) {
    lease.release();
    // The first failure decides; the others are its echo (downloads it stopped).
    const first = (failed.signal.reason as Error | undefined) ?? error;
    if (first instanceof AttachmentMemoryFull) throw new RetryLaterError(first.message, { cause: first });
    throw first;
  }
}

/** `fn` over `items` with at most `limit` running at once, results in input order; rejects at the first failure, once all started ones settled. */
async function mapBounded<T, R>(items: readonly T[], limit: number, fn: (item: T) => Promise<R>): Promise<R[]> {
  const results: R[] = new Array(items.length);
  let next = 0;
  let failure: { error: unknown } | undefined;
  const lane = async () => {
    while (next < items.length && !failure) {
      const index = next++;
      try {
        results[index] = await fn(items[index]);
      } catch (error) {
        failure ??= { error };
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, lane));
  if (failure) throw failure.error;
  return results;
}
