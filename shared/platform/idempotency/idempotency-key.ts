import { createHash } from 'node:crypto';
import { badRequest } from '../core/errors';

/** The request header (lowercased, as the API handler normalises header names). */
export const IDEMPOTENCY_HEADER = 'idempotency-key';

/** The header a replayed answer carries (part 4.3). */
export const REPLAYED_HEADER = 'idempotency-replayed';

/** Longest key accepted (parts 4.5 and 8), in characters. */
export const MAX_IDEMPOTENCY_KEY_LENGTH = 256;

/** Our wording: the spec quotes no messages for the header. */
export const IDEMPOTENCY_MESSAGES = {
  refused: 'Idempotency-Key is not supported on this endpoint',
  length: `Idempotency-Key must be 1 to ${MAX_IDEMPOTENCY_KEY_LENGTH} characters`,
  reused: 'Idempotency-Key was already used with a different request',
  inProgress: 'A request with this Idempotency-Key is still in progress; retry shortly',
} as const;

/** Machine-readable codes of the 422 and 409 answers (project routes show them as `code`). */
export const IDEMPOTENCY_CODES = {
  reused: 'IDEMPOTENCY_KEY_REUSED',
  inProgress: 'IDEMPOTENCY_KEY_IN_PROGRESS',
} as const;

/**
 * The header's value when it is 1 to 256 characters, else a 400. Characters are Unicode code
 * points, so a key of 256 non-ASCII characters is not refused for its UTF-16 length.
 */
export function checkIdempotencyKey(value: string): string {
  const length = [...value].length;
  if (length < 1 || length > MAX_IDEMPOTENCY_KEY_LENGTH) throw badRequest(IDEMPOTENCY_MESSAGES.length);
  return value;
}

/** SHA-256 hex of the key: the stored key has a fixed size whatever the client sent. */
export function hashIdempotencyKey(key: string): string {
  return createHash('sha256').update(key, 'utf8').digest('hex');
}
