import { services } from '../../shared/container';
import { parseSesMessage } from '../../shared/delivery/ses-event';
import { recordDeliveryEvent, type ProjectCache } from '../../shared/delivery/record-event';
import { logger } from '../../shared/logger';
import { MailMetrics } from '../../shared/metrics/mail-metrics';
import { sqsBatchHandler } from '../../shared/queue-worker/batch-handler';
import { flushCounters } from '../../shared/stats/counter-flush';
import { CounterBatch } from '../../shared/stats/domain-stats';

/** SES events worker: applies each event to its activity, suppression list and counters. */
export const handler = sqsBatchHandler(
  async (record, { deps, counters, projects }) => {
    const outcome = await recordDeliveryEvent(deps, parseSesMessage(record.body), counters, projects);
    if (outcome === 'unknown_activity') logger.info('SES event for no activity of ours', { messageId: record.messageId });
  },
  {
    start: () => ({ deps: services(), counters: new CounterBatch(), projects: new Map() as ProjectCache, metrics: new MailMetrics() }),
    finish: async ({ deps, counters, metrics }) => {
      metrics.addCounters(counters);
      await flushCounters(deps, counters);
      metrics.publish();
    },
  },
);
