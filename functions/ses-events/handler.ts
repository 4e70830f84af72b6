import { sesEventsScope } from '../../composition/worker-scopes/ses-events';
import { parseSesMessage } from '../../shared/mail-pipeline/delivery/ses-event';
import { recordDeliveryEvent } from '../../shared/mail-pipeline/delivery/record-event';
import { logger } from '../../shared/platform/core/logger';
import { sqsBatchHandler } from '../../shared/platform/queue-worker/batch-handler';

/** SES events worker: applies each event to its activity, suppression list, domain and campaign counters. */
export const handler = sqsBatchHandler(async (record, { deps, counters, projects, tally }) => {
  const outcome = await recordDeliveryEvent(deps, parseSesMessage(record.body), counters, projects, tally);
  if (outcome === 'unknown_activity') logger.info('SES event for no activity of ours', { messageId: record.messageId });
}, sesEventsScope);
