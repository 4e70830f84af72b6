import { services } from '../../composition/services';
import { sweepAutomationDue, type AutomationSweepResult } from '../../shared/marketing/automations/engine/due-sweep';
import { lambdaHandler } from '../../shared/platform/core/lambda-handler';
import { logger } from '../../shared/platform/core/logger';

/** Scheduled every minute: queues a delayed wake for each automation run due within the lookahead. */
export const handler = lambdaHandler(async (): Promise<AutomationSweepResult> => {
  const result = await sweepAutomationDue(services());
  if (result.due > 0) logger.info('Queued automation wakes', { ...result });
  return result;
});
