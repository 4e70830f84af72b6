import type { Needs } from '../../platform/core/dependencies';
import type { ProjectCaller } from '../../platform/auth/authenticate';
import { badRequest } from '../../platform/core/errors';
import { boundedPaginationBlock, cursorQuerySchema, listCursor, pageQuerySchema, type PageRequest } from '../../platform/http/pagination';
import * as z from '../../platform/core/zod';
import { CAMPAIGN_STATUSES } from './campaign-answers';
import type { CampaignStatus } from './campaign';
import { presentCampaignSummary, presentMetrics } from './campaign-presenter';
import { pageCampaigns, readCampaignCounts } from './campaign-gateway';
import { requireCampaign } from './manage-campaign';
import { enqueueCampaignMessage } from './engine-messages';

/** What this module's use cases touch. */
type Deps = Needs<'db' | 'clock' | 'queue'>;

const STATUSES: readonly CampaignStatus[] = CAMPAIGN_STATUSES;
/** How long init may take before a read queues it again: part 3 gives initialization 2 to 30 seconds. */
export const INIT_REPAIR_AFTER_MS = 120_000;

const STATUS_MESSAGE = `status must be one of ${STATUSES.join(', ')}`;

/**
 * The query of `GET /v1/campaigns`: `page` and `per_page`, then `status` (as parseStatusFilter reads
 * it), and `cursor`, which listCursor checks against the page.
 */
export const campaignListQuerySchema = z.object({
  ...pageQuerySchema.shape,
  status: z.optional(
    z.string().check(
      z.refine((v) => v === '' || STATUSES.includes(v as CampaignStatus), STATUS_MESSAGE),
      z.meta({ description: `One of part 3's states: ${STATUSES.join(', ')}` }),
    ),
  ),
  ...cursorQuerySchema.shape,
});

/** Reads `status` of `GET /v1/campaigns`: one of part 3's states, or absent. */
export function parseStatusFilter(value: string | undefined): CampaignStatus | undefined {
  if (value === undefined || value === '') return undefined;
  if (!STATUSES.includes(value as CampaignStatus)) throw badRequest(STATUS_MESSAGE);
  return value as CampaignStatus;
}

/**
 * `GET /v1/campaigns`: the project's campaigns newest first (a bounded page of the gsi1 list: see
 * shared/platform/store/bounded-list.ts), each with its sent and failed counters. No `total_pages` (4.8).
 */
export async function listCampaigns(deps: Deps, caller: ProjectCaller, page: PageRequest, status: CampaignStatus | undefined, query: { cursor?: string }) {
  const { campaigns, ...listed } = await pageCampaigns(deps.db, caller.project.id, page, status, listCursor(query, page));
  const counts = await Promise.all(campaigns.map((c) => readCampaignCounts(deps.db, c.id)));
  return {
    campaigns: campaigns.map((c, i) => presentCampaignSummary(c, counts[i])),
    pagination: boundedPaginationBlock(page, listed, false),
  };
}

/**
 * `GET /v1/campaigns/:id`: the summary and its metrics, all from the counters (nothing is counted
 * per request). A campaign still `initializing` long after its creation had its `init` message lost
 * (a crash between the write and the enqueue): the read queues it again; the engine's init moves
 * the campaign with a conditional write, so a second init does nothing.
 */
export async function readCampaign(deps: Deps, caller: ProjectCaller, campaignId: string | undefined) {
  const campaign = await requireCampaign(deps, caller, campaignId);
  if (campaign.status === 'initializing' && deps.clock.now().getTime() - Date.parse(campaign.created_at) > INIT_REPAIR_AFTER_MS) {
    await enqueueCampaignMessage(deps, { v: 1, kind: 'init', campaign_id: campaign.id, project_id: campaign.project_id });
  }
  const counts = await readCampaignCounts(deps.db, campaign.id);
  return { campaign: presentCampaignSummary(campaign, counts), metrics: presentMetrics(counts) };
}
