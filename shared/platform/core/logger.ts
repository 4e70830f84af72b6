import { Logger } from '@aws-lambda-powertools/logger';
import { config } from './config';

/** The process-wide structured logger (JSON lines; level from POWERTOOLS_LOG_LEVEL or LOG_LEVEL). */
export const logger = new Logger({
  serviceName: 'mailroom',
  logLevel: (config().POWERTOOLS_LOG_LEVEL ?? config().LOG_LEVEL).toUpperCase() as 'INFO',
});
