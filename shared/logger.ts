import { Logger } from '@aws-lambda-powertools/logger';

/** The process-wide structured logger (JSON lines; level from POWERTOOLS_LOG_LEVEL or LOG_LEVEL). */
export const logger = new Logger({
  serviceName: 'mailroom',
  logLevel: (process.env.POWERTOOLS_LOG_LEVEL ?? process.env.LOG_LEVEL ?? 'INFO').toUpperCase() as 'INFO',
});
