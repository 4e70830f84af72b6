import { parseExportJob } from '../../shared/marketing/campaign-reports/campaign-export';
import { runExport } from '../../shared/marketing/campaign-reports/export-run';
import { services } from '../../composition/services';
import { sqsBatchHandler } from '../../shared/platform/queue-worker/batch-handler';

/** Worker of the `exports` queue: writes a campaign's outcome CSV from its checkpoint for one time budget. */
export const handler = sqsBatchHandler((record) => runExport(services(), parseExportJob(record.body)));
