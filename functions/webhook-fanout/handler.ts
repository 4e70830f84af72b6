import type { SQSBatchResponse, SQSEvent } from 'aws-lambda';
import { services } from '../../composition/services';
import type { ServiceEvent } from '../../shared/platform/core/events';
import { lambdaHandler } from '../../shared/platform/core/lambda-handler';
import { logger } from '../../shared/platform/core/logger';
import { fanOut } from '../../shared/notifications/webhooks/fanout';

/**
 * Webhook fan-out: each event becomes one delivery per URL. The batch is fanned out together (one
 * SendMessageBatch per ten deliveries); if that fails the whole batch comes back, and the
 * deliveries of a batch sent twice carry new ids but the same event, which receivers deduplicate.
 */
export const handler = lambdaHandler(async (event: SQSEvent): Promise<SQSBatchResponse> => {
  const events: ServiceEvent[] = [];
  const unreadable: string[] = [];
  for (const record of event.Records) {
    try {
      events.push(JSON.parse(record.body) as ServiceEvent);
    } catch {
      unreadable.push(record.messageId);
    }
  }
  const deliveries = await fanOut(services(), events);
  if (unreadable.length > 0) logger.error('Unreadable events', { messageIds: unreadable });
  logger.debug('Fanned out', { events: events.length, deliveries });
  return { batchItemFailures: unreadable.map((itemIdentifier) => ({ itemIdentifier })) };
});
