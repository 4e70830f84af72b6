import { parseAudienceJob } from '../../shared/audience/leads/audience-job';
import { runAudienceJob } from '../../shared/audience/leads/segment-service';
import { services } from '../../composition/services';
import { sqsBatchHandler } from '../../shared/platform/queue-worker/batch-handler';

/** Worker of the `audience` queue: dynamic segment evaluation steps and segment cleanups. */
export const handler = sqsBatchHandler((record) => runAudienceJob(services(), parseAudienceJob(record.body)));
