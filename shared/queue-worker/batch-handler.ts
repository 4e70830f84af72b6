import type { SQSBatchResponse, SQSEvent, SQSRecord } from 'aws-lambda';
import { logger } from '../logger';

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
      const level = error?.name === 'RetryLaterError' ? 'info' : 'error';
      logger[level]('Record failed; it will be retried', { messageId: record.messageId, error });
      return [{ itemIdentifier: record.messageId }];
    });
    return { batchItemFailures };
  };
}
