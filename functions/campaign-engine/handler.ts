import { parseCampaignMessage } from '../../shared/campaigns/engine-messages';
import { runCampaignMessage } from '../../shared/campaigns/engine';
import { services } from '../../composition/services';
import { sqsBatchHandler } from '../../shared/queue-worker/batch-handler';

/** Worker of the `campaigns` queue: the campaign engine's init, step and resume messages. */
export const handler = sqsBatchHandler((record) => runCampaignMessage(services(), parseCampaignMessage(record.body)));
