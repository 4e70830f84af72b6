/** The limits of part 8 that apply to sends. */
export const SEND_LIMITS = {
  recipientsPerSingleSend: 50,
  ccPerSend: 10,
  bccPerSend: 10,
  attachmentsPerEmail: 10,
  attachmentBytes: 10 * 1024 * 1024,
  attachmentTotalBytes: 10 * 1024 * 1024,
  environmentMaxLength: 64,
  /** Time allowed to fetch one attachment URL. */
  attachmentFetchTimeoutMs: 10_000,
} as const;

/** Allowed characters of an `environment` name. */
export const ENVIRONMENT_PATTERN = /^[a-zA-Z0-9_.-]+$/;
