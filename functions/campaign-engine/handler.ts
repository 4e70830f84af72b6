import { parseCampaignMessage } from '../../shared/marketing/campaigns/engine-messages';
import { runCampaignMessage } from '../../shared/marketing/campaigns/engine';
import { services } from '../../composition/services';
import { sqsBatchHandler } from '../../shared/platform/queue-worker/batch-handler';

/** Worker of the `campaigns` queue: the campaign engine's init, step and resume messages. */
export const handler = sqsBatchHandler((record) => runCampaignMessage(services(), parseCampaignMessage(record.body)));
