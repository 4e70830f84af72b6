import type { SQSBatchResponse, SQSEvent, SQSRecord } from 'aws-lambda';
import { lambdaHandler } from '../core/lambda-handler';
import { logger } from '../core/logger';

/**
 * The record must come back later (a delivery that another worker holds, a retry after backoff):
 * expected, so logged at info rather than as an error. Workers throw it; the batch handler reports
 * the record as failed either way.
 */
export class RetryLaterError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'RetryLaterError';
  }
}

/** What the records of one batch share: built when the batch starts, finished once every record settled. */
export interface BatchScope<TBatch> {
  /** Builds what the batch's records share (the services, counters, caches). */
  readonly start: () => TBatch;
  /** Runs after every record settled, whatever became of them (writes what they gathered). */
  readonly finish?: (batch: TBatch) => Promise<void>;
}

/**
 * A worker's Lambda entry point: runs one function per SQS record, concurrently, and reports the
 * failed ones as partial batch failures, so only they come back after the visibility timeout. Its
 * log lines carry the invocation's request id. `scope` gives the records of a batch what they share.
 */
export function sqsBatchHandler<TBatch = undefined>(
  processRecord: (record: SQSRecord, batch: TBatch) => Promise<unknown>,
  scope?: BatchScope<TBatch>,
) {
  return lambdaHandler(async (event: SQSEvent): Promise<SQSBatchResponse> => {
    const batch = scope ? scope.start() : (undefined as TBatch);
    // async, so that a processor throwing before its first await fails its record only, not the batch.
    const results = await Promise.allSettled(event.Records.map(async (record) => processRecord(record, batch)));
    const batchItemFailures = results.flatMap((result, i) => {
      if (result.status === 'fulfilled') return [];
      const record = event.Records[i];
      const error = result.reason as Error;
      const level = error instanceof RetryLaterError ? 'info' : 'error';
      logger[level]('Record failed; it will be retried', { messageId: record.messageId, error });
      return [{ itemIdentifier: record.messageId }];
    });
    await scope?.finish?.(batch);
    return { batchItemFailures };
  });
}
