import { randomUUID } from 'node:crypto';
import type { Needs } from '../core/dependencies';
import { conflict, unprocessable } from '../core/errors';
import { logger } from '../core/logger';
import { IDEMPOTENCY_CODES, IDEMPOTENCY_MESSAGES, hashIdempotencyKey } from './idempotency-key';
import { assessRecord, epochSeconds, type StoredResponse } from './idempotency-record';
import { claimIdempotencyKey, completeIdempotencyKey, releaseIdempotencyKey, type IdempotencyClaim } from './idempotency-repository';

/** What a request with a key does next: run the route holding the key, or replay a stored answer. */
export type IdempotencyStart =
  | { readonly kind: 'proceed'; readonly claim: IdempotencyClaim }
  | { readonly kind: 'replay'; readonly response: StoredResponse };

type Deps = Needs<'db' | 'clock'>;

/**
 * Claims `(project, key)` or finds why not: a completed record of the same request is replayed; a
 * record of another request is a 422; a request still running with the key is a 409, which is
 * what makes concurrent duplicates produce one send.
 */
export async function startIdempotentRequest(deps: Deps, input: { projectId: string; key: string; fingerprint: string }): Promise<IdempotencyStart> {
  const now = deps.clock.now();
  const claim: IdempotencyClaim = { projectId: input.projectId, keyHash: hashIdempotencyKey(input.key), token: randomUUID() };
  const outcome = await claimIdempotencyKey(deps.db, { claim, fingerprint: input.fingerprint, now });
  if (outcome.claimed) return { kind: 'proceed', claim };
  const assessment = assessRecord(outcome.existing, input.fingerprint, epochSeconds(now));
  if (assessment === 'replay' && outcome.existing?.response) return { kind: 'replay', response: outcome.existing.response };
  if (assessment === 'reused') throw unprocessable(IDEMPOTENCY_MESSAGES.reused, IDEMPOTENCY_CODES.reused, { code: IDEMPOTENCY_CODES.reused });
  // In progress; or the record changed between the check and its read-back: a retry settles it.
  throw conflict(IDEMPOTENCY_MESSAGES.inProgress, IDEMPOTENCY_CODES.inProgress, { code: IDEMPOTENCY_CODES.inProgress });
}

/**
 * Settles a held key once the route has answered: a 2xx or 4xx answer is stored for replay; a 5xx
 * (or no answer) deletes the record so that a retry runs again. Never throws: the client gets its
 * answer even when this write fails, and the record's lease then runs out on its own.
 */
export async function finishIdempotentRequest(deps: Deps, claim: IdempotencyClaim, response: StoredResponse | undefined): Promise<void> {
  try {
    if (response && response.status < 500) {
      const stored = await completeIdempotencyKey(deps.db, { claim, response, now: deps.clock.now() });
      if (!stored) logger.warn('Idempotency-Key record was taken over before its answer was stored', { projectId: claim.projectId });
    } else {
      await releaseIdempotencyKey(deps.db, claim);
    }
  } catch (error) {
    logger.error('Could not settle the Idempotency-Key record', { projectId: claim.projectId, error: error as Error });
  }
}
