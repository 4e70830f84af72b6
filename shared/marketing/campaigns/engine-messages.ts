import * as z from '../../platform/core/zod';
import type { Needs } from '../../platform/core/dependencies';

/**
 * Messages of the `campaigns` queue (docs/campaigns.md):
 * - `init`: count the frozen audience and move `initializing` to `pending`, then start or schedule;
 * - `step`: engine step `step` (fenced: only the step equal to the campaign's `step` runs);
 * - `resume`: queue again the jobs held while the campaign was paused, then step.
 */
export const campaignMessageSchema = z.discriminatedUnion('kind', [
  z.object({ v: z.literal(1), kind: z.literal('init'), campaign_id: z.string(), project_id: z.string() }),
  z.object({ v: z.literal(1), kind: z.literal('step'), campaign_id: z.string(), project_id: z.string(), step: z.number().check(z.int(), z.nonnegative()) }),
  z.object({ v: z.literal(1), kind: z.literal('resume'), campaign_id: z.string(), project_id: z.string() }),
]);

export type CampaignMessage = z.infer<typeof campaignMessageSchema>;

/** Parses a queue message body; a malformed one throws (and lands in the dead-letter queue). */
export const parseCampaignMessage = (body: string): CampaignMessage => campaignMessageSchema.parse(JSON.parse(body));

/** Puts an engine message on the `campaigns` queue, after `delaySeconds` (0 to 900). */
export async function enqueueCampaignMessage(deps: Needs<'queue'>, message: CampaignMessage, delaySeconds = 0): Promise<void> {
  await deps.queue.send('campaigns', message, delaySeconds > 0 ? { delaySeconds } : undefined);
}
