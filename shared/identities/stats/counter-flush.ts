import { logger } from '../../platform/core/logger';
import type { Clock } from '../../platform/core/ports';
import { ttlAfterDays, type Db } from '../../platform/store/client';
import type { CounterBatch } from './domain-stats';

/** Counters are kept for a little over a year, enough for any statistics period. */
export const COUNTER_RETENTION_DAYS = 400;

/**
 * Writes the counters a batch or request gathered, with the retention's ttl. Never throws: the
 * mails are out and the events recorded whatever happens here, and a lost increment only makes the
 * statistics a little low, so a failure is logged instead of failing the work around it.
 */
export async function flushCounters(deps: { readonly db: Db; readonly clock: Clock }, counters: CounterBatch): Promise<void> {
  try {
    await counters.flush(deps.db, ttlAfterDays(deps.clock.now(), COUNTER_RETENTION_DAYS));
  } catch (error) {
    logger.error('Counter flush failed', { error: error as Error });
  }
}
