import { services } from '../../composition/services';
import { sweepDns } from '../../shared/domains/dns-sweep';
import { lambdaHandler } from '../../shared/lambda-handler';
import { logger } from '../../shared/logger';

/** Scheduled every 6 hours: resolves SPF, DMARC, reply MX and tracking CNAME records and updates their status (part 3). */
export const handler = lambdaHandler(async (): Promise<{ domains: number; records: number }> => {
  const counts = await sweepDns(services());
  logger.info('DNS sweep done', counts);
  return counts;
});
