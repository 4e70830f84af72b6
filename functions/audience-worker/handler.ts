import { parseAudienceJob } from '../../shared/audience/audience-job';
import { runAudienceJob } from '../../shared/audience/segment-service';
import { services } from '../../composition/services';
import { sqsBatchHandler } from '../../shared/queue-worker/batch-handler';

/** Worker of the `audience` queue: dynamic segment evaluation steps and segment cleanups. */
export const handler = sqsBatchHandler((record) => runAudienceJob(services(), parseAudienceJob(record.body)));
