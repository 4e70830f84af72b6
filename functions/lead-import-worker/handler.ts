import { parseImportJob } from '../../shared/audience/imports/import-job';
import { runImportJob } from '../../shared/audience/imports/import-service';
import { services } from '../../composition/services';
import { sqsBatchHandler } from '../../shared/platform/queue-worker/batch-handler';
import { isLastReceive } from '../../shared/platform/queue-worker/receive-count';

/** Worker of the `imports` queue: runs a lead import from its checkpoint for one time budget. */
export const handler = sqsBatchHandler((record) => runImportJob(services(), parseImportJob(record.body), { lastReceive: isLastReceive('imports', record) }));
