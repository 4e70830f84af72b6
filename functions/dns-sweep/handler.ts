import { services } from '../../composition/services';
import { sweepDns } from '../../shared/identities/domains/dns-sweep';
import { lambdaHandler } from '../../shared/platform/core/lambda-handler';
import { logger } from '../../shared/platform/core/logger';

/** Scheduled every 6 hours: resolves SPF, DMARC, reply MX and tracking CNAME records and updates their status (part 3). */
export const handler = lambdaHandler(async (): Promise<{ domains: number; records: number }> => {
  const counts = await sweepDns(services());
  logger.info('DNS sweep done', counts);
  return counts;
});
