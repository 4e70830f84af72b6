/** The limits of part 8 that apply to sends. */
export const SEND_LIMITS = {
  recipientsPerSingleSend: 50,
  ccPerSend: 10,
  bccPerSend: 10,
  attachmentsPerEmail: 10,
  attachmentBytes: 10 * 1024 * 1024,
  attachmentTotalBytes: 10 * 1024 * 1024,
  environmentMaxLength: 64,
  /** A batch recipient's `data` and `metadata`, each as JSON (as much as a lead's data holds). */
  recipientValueBytes: 32 * 1024,
  /** Time allowed to fetch one attachment URL, redirects included (a deadline, not an idle timeout). */
  attachmentFetchTimeoutMs: 10_000,
  /**
   * Time allowed for all of one mail's attachment fetches together: with the SES call and the writes
   * after it, well within the send worker's 30 s (WORKER_TIMEOUT_SECONDS) and the queue's 60 s
   * visibility timeout.
   */
  attachmentFetchesDeadlineMs: 15_000,
  /** Attachment URLs of one mail fetched at the same time. */
  attachmentFetchConcurrency: 4,
  /** Fetched attachment bytes one worker process holds at a time, over all its mails (shared/mail-pipeline/sending/attachment-memory.ts). */
  attachmentMemoryBytes: 30 * 1024 * 1024,
} as const;

/** Allowed characters of an `environment` name. */
export const ENVIRONMENT_PATTERN = /^[a-zA-Z0-9_.-]+$/;
