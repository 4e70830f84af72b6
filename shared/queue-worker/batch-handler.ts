import type { SQSBatchResponse, SQSEvent, SQSRecord } from 'aws-lambda';
import { logger } from '../logger';

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

/**
 * Runs one function per SQS record, concurrently, and reports the failed ones as partial batch
 * failures: only they come back after the visibility timeout, the rest are deleted.
 */
export function sqsBatchHandler(processRecord: (record: SQSRecord) => Promise<void>) {
  return async (event: SQSEvent): Promise<SQSBatchResponse> => {
    const results = await Promise.allSettled(event.Records.map((record) => processRecord(record)));
    const batchItemFailures = results.flatMap((result, i) => {
      if (result.status === 'fulfilled') return [];
      const record = event.Records[i];
      const error = result.reason as Error;
      const level = error instanceof RetryLaterError ? 'info' : 'error';
      logger[level]('Record failed; it will be retried', { messageId: record.messageId, error });
      return [{ itemIdentifier: record.messageId }];
    });
    return { batchItemFailures };
  };
}
