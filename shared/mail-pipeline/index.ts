/**
 * The mail pipeline: a mail from accept to SES and back, the ONE entry every producer (the v1 send,
 * the advanced and template sends, scheduled sends, batches, campaign waves) and every worker
 * imports. Its stages, each in its own module beside this one:
 *
 * - accept (accept.ts): the activity record `queued`, its stored body, its `send` job; all or nothing.
 * - deferred accept (deferred-accept.ts; resolve-scheduled-at.ts and its readers): `scheduled_at`
 *   read, the due index's fire message, its delays, the early tolerance; the same for a scheduled
 *   send and a scheduled batch.
 * - render (render.ts): content, template and recipient into one mail's payload.
 * - policies (policies.ts, limits.ts, request-fields.ts): preview limit, default subject,
 *   environments, chunk size, the request limits and the fields every send's request shares;
 *   suppression and quota are applied by the deliverer.
 * - deliver (deliver.ts): THE one place a mail is handed to SES, at most once per attempt.
 * - retry (retry.ts): the one retry path, backoff and error codes, whatever the mail's origin.
 * - record (mail-body.ts, job.ts, reply-token.ts): what is stored and queued of a mail.
 */
export { queueSend, queueSends, packStoredSendJob, recordFailedSend, type AcceptDeps, type QueuedSend } from './accept';
export {
  deferAccept,
  EARLY_TOLERANCE_MS,
  enqueueFire,
  fireDelaySeconds,
  isEarly,
  isWithinLookahead,
  MAX_DELAY_SECONDS,
  parseFireMessage,
  SWEEP_LOOKAHEAD_SECONDS,
  SWEEP_OVERLAP_SECONDS,
  type FireMessage,
} from './deferred-accept';
export { deliverMail, failUnrenderable, type CampaignHooks, type DeliverDeps, type DeliveryOutcome } from './deliver';
export { INLINE_PAYLOAD_LIMIT_BYTES, loadPayload, packSendJob, parseSendJob, type SendJob, type SendPayload } from './job';
export { ENVIRONMENT_PATTERN, SEND_LIMITS } from './limits';
export { encodeMailBody } from './mail-body';
export { dedupe, environmentSchema, isBlank, optionalText, present } from './request-fields';
export { BATCH_CHUNK_SIZE, checkProjectCanSend, defaultSubject, DRY_RUN_PREVIEWS, HTML_PREVIEW_LIMIT, POLICY_MESSAGES } from './policies';
export { composeMail, isEmptyHtml, SAMPLE_CART_ITEMS, threadingHeaders, type ComposedMail, type MailContent } from './render';
export { activityFromReplyAddress, mailReplyTo, replyAddress } from './reply-token';
export { MAX_SEND_ATTEMPTS, retryDelaySeconds, retryOrFail } from './retry';
export { resolveScheduledAt, type ResolvedSchedule } from './resolve-scheduled-at';
export { looksLikeIsoTimestamp, parseIsoTimestamp, readIsoTimestamp } from './iso-timestamp';
export { displayTimeZone, isValidTimeZone, offsetLabel } from './time-zones';
