/** How long a key is remembered (parts 4.3, 4.5 and 8): 24 hours from its first request. */
export const IDEMPOTENCY_RETENTION_SECONDS = 24 * 3600;

/**
 * How long a request holds its key before another request with the same key and body may take it
 * over (the holder is then presumed dead). Longer than the API functions' 28 s timeout
 * (lib/api.ts `API_FUNCTION_TIMEOUT`), so a live holder is never overtaken.
 */
export const IDEMPOTENCY_LEASE_SECONDS = 60;

/** An answer as it is stored and replayed: status, headers and the body exactly as sent. */
export interface StoredResponse {
  readonly status: number;
  readonly headers: Readonly<Record<string, string>>;
  readonly body: string;
  /** The body is base64 (a binary answer); none of the supported routes gives one. */
  readonly base64?: boolean;
}

/** The stored record of one `(project, key)`. */
export interface IdempotencyRecord {
  readonly status: 'in_progress' | 'completed';
  /** See request-fingerprint.ts. */
  readonly fingerprint: string;
  /** Written by the request that holds the key; its later update or delete is conditional on it. */
  readonly token: string;
  /** Epoch seconds: an in-progress record may be taken over after this. */
  readonly lease_until?: number;
  /** Epoch seconds: created + 24 h. DynamoDB deletes lazily, so readers check it too. */
  readonly ttl: number;
  readonly response?: StoredResponse;
}

/** What a request finds under its key. */
export type RecordAssessment = 'free' | 'in_progress' | 'replay' | 'reused';

/**
 * The one rule on an existing record, also written as the claim's condition expression
 * (idempotency-repository.ts): an absent or expired record is free; another request's body is a
 * reuse; a completed record is replayed; an in-progress record is busy until its lease runs out.
 */
export function assessRecord(record: IdempotencyRecord | undefined, fingerprint: string, nowSeconds: number): RecordAssessment {
  if (!record || record.ttl <= nowSeconds) return 'free';
  if (record.fingerprint !== fingerprint) return 'reused';
  if (record.status === 'completed') return 'replay';
  return (record.lease_until ?? 0) < nowSeconds ? 'free' : 'in_progress';
}

/** Epoch seconds of a date (the unit of `ttl` and `lease_until`). */
export function epochSeconds(date: Date): number {
  return Math.floor(date.getTime() / 1000);
}
