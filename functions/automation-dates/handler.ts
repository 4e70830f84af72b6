import { services } from '../../composition/services';
import { lambdaHandler } from '../../shared/platform/core/lambda-handler';
import { logger } from '../../shared/platform/core/logger';
import { queueDateWalks, type DateWalkResult } from '../../shared/marketing/automations/triggers/date-walks';

/** Scheduled every hour: queues, once per UTC day, the next day's walk of each date-triggered automation. */
export const handler = lambdaHandler(async (): Promise<DateWalkResult> => {
  const result = await queueDateWalks(services());
  if (result.walked > 0) logger.info('Queued date walks', { ...result });
  return result;
});
