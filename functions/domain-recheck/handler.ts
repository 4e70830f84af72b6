import { services } from '../../shared/container';
import { recheckDueDomains } from '../../shared/domains/domain-service';
import { recheckDueSenders } from '../../shared/domains/sender-service';
import { lambdaHandler } from '../../shared/lambda-handler';
import { logger } from '../../shared/logger';

/** Scheduled every minute: asks the provider about pending domains and magic-link senders that are due. */
export const handler = lambdaHandler(async (): Promise<{ domains: number; senders: number }> => {
  const deps = services();
  const domains = await recheckDueDomains(deps);
  const senders = await recheckDueSenders(deps);
  if (domains + senders > 0) logger.info('Re-checked identities', { domains, senders });
  return { domains, senders };
});
