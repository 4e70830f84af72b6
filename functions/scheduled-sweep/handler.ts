import { services } from '../../composition/services';
import { lambdaHandler } from '../../shared/platform/core/lambda-handler';
import { logger } from '../../shared/platform/core/logger';
import { sweepScheduledSends, type SweepResult } from '../../shared/mail-pipeline/scheduling/scheduled-sweep';

/** Scheduled every minute: queues a delayed fire message for each scheduled send due within the lookahead. */
export const handler = lambdaHandler(async (): Promise<SweepResult> => {
  const result = await sweepScheduledSends(services());
  if (result.due > 0) logger.info('Queued scheduled sends', { ...result });
  return result;
});
