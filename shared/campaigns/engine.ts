import type { Services } from '../container';
import type { CampaignMessage } from './engine-messages';

/**
 * Runs one message of the campaign engine (docs/campaigns.md). FOUNDATION ONLY: the engine branch
 * replaces this body; until then a message is retried and ends in the dead-letter queue.
 */
export async function runCampaignMessage(_deps: Services, message: CampaignMessage): Promise<void> {
  throw new Error(`The campaign engine does not handle '${message.kind}' yet`);
}
