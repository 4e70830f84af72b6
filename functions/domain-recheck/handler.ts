import { services } from '../../composition/services';
import { recheckDueDomains } from '../../shared/identities/domains/domain-service';
import { recheckDueSenders } from '../../shared/identities/domains/sender-service';
import { lambdaHandler } from '../../shared/platform/core/lambda-handler';
import { logger } from '../../shared/platform/core/logger';
import { provisionTrackingTls } from '../../shared/mail-pipeline/tracking/tracking-tls';

/**
 * Scheduled every minute: asks the provider about pending domains and magic-link senders that are
 * due, and the edge about verified tracking domains whose HTTPS is not active yet.
 */
export const handler = lambdaHandler(async (): Promise<{ domains: number; senders: number; trackingDomains: number }> => {
  const deps = services();
  const domains = await recheckDueDomains(deps);
  const senders = await recheckDueSenders(deps);
  const trackingDomains = await provisionTrackingTls(deps);
  if (domains + senders + trackingDomains > 0) logger.info('Re-checked identities', { domains, senders, trackingDomains });
  return { domains, senders, trackingDomains };
});
