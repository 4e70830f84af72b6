import { gunzipSync, gzipSync } from 'node:zlib';
import { DeleteCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import { applyTransition } from '../store/aggregate';
import { idempotencyRecordLifecycle } from '../store/aggregates/mail';
import type { Db } from '../store/client';
import { conditionalWrite, writtenUnlessConditionFails } from '../store/conditional-write';
import { idempotencyKey } from '../store/keys';
import { IDEMPOTENCY_LEASE_SECONDS, IDEMPOTENCY_RETENTION_SECONDS, epochSeconds, type IdempotencyRecord, type StoredResponse } from './idempotency-record';

/** The key a request holds while its route runs; completing or releasing it needs the token. */
export interface IdempotencyClaim {
  readonly projectId: string;
  readonly keyHash: string;
  readonly token: string;
}

/** The outcome of a claim: held, or refused with the record that stands in the way. */
export type ClaimOutcome = { readonly claimed: true } | { readonly claimed: false; readonly existing?: IdempotencyRecord };

/**
 * Claims `(project, key)` for one request: a conditional put of an in-progress record. It succeeds
 * when no record exists, when the record is older than 24 h (DynamoDB's TTL deletes lazily), or
 * when it is in progress for the same request with a lease that ran out (its holder died): the
 * rule of `assessRecord`, evaluated atomically. On refusal the standing record comes back with the
 * failed write, so no read is needed. 1 WCU either way.
 */
export async function claimIdempotencyKey(db: Db, input: { claim: IdempotencyClaim; fingerprint: string; now: Date }): Promise<ClaimOutcome> {
  const now = epochSeconds(input.now);
  const outcome = await conditionalWrite(
    db.doc.send(
      new PutCommand({
        TableName: db.tableName,
        Item: {
          ...idempotencyKey(input.claim.projectId, input.claim.keyHash),
          status: 'in_progress',
          fingerprint: input.fingerprint,
          token: input.claim.token,
          lease_until: now + IDEMPOTENCY_LEASE_SECONDS,
          created_at: input.now.toISOString(),
          ttl: now + IDEMPOTENCY_RETENTION_SECONDS,
        },
        ConditionExpression: 'attribute_not_exists(pk) OR #ttl <= :now OR (#status = :in_progress AND #lease < :now AND #fingerprint = :fingerprint)',
        // `status` and `ttl` are DynamoDB reserved words; the other names are aliased alike.
        ExpressionAttributeNames: { '#status': 'status', '#ttl': 'ttl', '#lease': 'lease_until', '#fingerprint': 'fingerprint' },
        ExpressionAttributeValues: { ':now': now, ':in_progress': 'in_progress', ':fingerprint': input.fingerprint },
        ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
      }),
    ),
  );
  if (outcome.written) return { claimed: true };
  return { claimed: false, existing: outcome.standing ? recordFromItem(outcome.standing) : undefined };
}

/**
 * Stores the answer on the held record and marks it completed, keeping its `ttl` (24 h from the
 * first request). False when the claim was lost (taken over after the lease ran out). 1 WCU for
 * an answer under about 1 KB.
 */
export function completeIdempotencyKey(db: Db, input: { claim: IdempotencyClaim; response: StoredResponse; now: Date }): Promise<boolean> {
  return applyTransition(
    db,
    idempotencyRecordLifecycle,
    'complete',
    idempotencyKey(input.claim.projectId, input.claim.keyHash),
    // One attribute: the record reads back the same from a failed put's raw item.
    { response: encodeResponse(input.response), completed_at: input.now.toISOString() },
    // Only the holder of the claim completes it.
    { expression: '#token = :token', names: { '#token': 'token' }, values: { ':token': input.claim.token } },
  );
}

/** Deletes the held record (after a 5xx or a crash of the route), so that a retry runs again. */
export async function releaseIdempotencyKey(db: Db, claim: IdempotencyClaim): Promise<void> {
  // A lost condition: someone else holds the key now, and the record is theirs to finish.
  await writtenUnlessConditionFails(
    db.doc.send(
      new DeleteCommand({
        TableName: db.tableName,
        Key: idempotencyKey(claim.projectId, claim.keyHash),
        ConditionExpression: '#token = :token',
        ExpressionAttributeNames: { '#token': 'token' },
        ExpressionAttributeValues: { ':token': claim.token },
      }),
    ),
  );
}

/** Answers above this are stored gzipped: a 10,000-recipient batch answer (about 900 KB) would not fit an item. */
const GZIP_ABOVE_BYTES = 4096;

/** The stored form of an answer: JSON text, or gzipped JSON (binary) when it is large. */
function encodeResponse(response: StoredResponse): string | Uint8Array {
  const json = JSON.stringify(response);
  return Buffer.byteLength(json) > GZIP_ABOVE_BYTES ? new Uint8Array(gzipSync(json)) : json;
}

/** The stored answer as JSON text, from plain or raw attribute-value form, gzipped or not. */
function responseText(value: unknown): string | undefined {
  const plain = text(value);
  if (plain !== undefined) return plain;
  const bytes = value instanceof Uint8Array ? value : (value as { B?: Uint8Array } | undefined)?.B;
  return bytes ? gunzipSync(bytes).toString('utf8') : undefined;
}

/** A stored item, in raw attribute-value form (as a failed write returns it) or plain. */
export function recordFromItem(item: Record<string, unknown>): IdempotencyRecord {
  const response = responseText(item.response);
  return {
    status: text(item.status) === 'completed' ? 'completed' : 'in_progress',
    fingerprint: text(item.fingerprint) ?? '',
    token: text(item.token) ?? '',
    lease_until: number(item.lease_until),
    ttl: number(item.ttl) ?? 0,
    response: response === undefined ? undefined : (JSON.parse(response) as StoredResponse),
  };
}

function text(value: unknown): string | undefined {
  if (typeof value === 'string') return value;
  return (value as { S?: string } | undefined)?.S;
}

function number(value: unknown): number | undefined {
  if (typeof value === 'number') return value;
  const raw = (value as { N?: string } | undefined)?.N;
  return raw === undefined ? undefined : Number(raw);
}
