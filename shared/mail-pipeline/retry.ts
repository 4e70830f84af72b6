import type { Activity, FailureCode } from './activity/activity';
import { transitionFromSendable } from './activity/activity-repository';
import type { Needs } from '../platform/core/dependencies';
import type { MailerError } from '../platform/core/ports';
import type { DeliveryOutcome } from './deliver';
import type { SendJob } from './job';

/** How often and how late a temporarily failed send is tried again. */
export const MAX_SEND_ATTEMPTS = 5;

/** Seconds before attempt `nextAttempt` (2..5): 30, 60, 120, 240 plus up to 10 s of jitter; SQS caps at 900. */
export function retryDelaySeconds(nextAttempt: number, random: () => number = Math.random): number {
  const base = 30 * 2 ** Math.max(0, nextAttempt - 2);
  return Math.min(900, base + Math.floor(random() * 10));
}

/**
 * THE retry path of a mail, whatever its origin (a batch's mail retries here like an API send):
 * SES's refusal mapped to the activity's error_code, and a passing error (throttling, transient)
 * tried again as the next attempt's `send` job after retryDelaySeconds, until MAX_SEND_ATTEMPTS.
 * The next attempt is claimed like the first (deliver.ts), so a duplicate job sends nothing twice.
 */
export async function retryOrFail(
  deps: Needs<'db' | 'queue' | 'clock'>,
  job: SendJob,
  activity: Activity,
  error: MailerError,
  fail: (code: FailureCode, message: string, permanent: boolean) => Promise<DeliveryOutcome>,
): Promise<DeliveryOutcome> {
  switch (error.kind) {
    case 'sender_not_verified':
      return fail('sender_not_verified', error.message, true);
    case 'quota_exceeded':
      return fail('quota_exceeded', error.message, false);
    case 'rejected':
      return fail('rejected', error.message, true);
    case 'throttled':
    case 'transient': {
      if (job.attempt >= MAX_SEND_ATTEMPTS) {
        return error.kind === 'throttled'
          ? fail('rate_limit_exhausted', `Sending rate limit still exceeded after ${MAX_SEND_ATTEMPTS} attempts`, false)
          : fail('send_failed', `${error.message} (after ${MAX_SEND_ATTEMPTS} attempts)`, false);
      }
      const next = job.attempt + 1;
      // Enqueue first: if we crash before the status write, the retry still happens.
      await deps.queue.send('send', { ...job, attempt: next }, { delaySeconds: retryDelaySeconds(next) });
      await transitionFromSendable(deps.db, activity, 'retrying', { updated_at: deps.clock.now().toISOString() });
      return 'retry_scheduled';
    }
  }
}
