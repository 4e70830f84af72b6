import type { Needs } from '../../platform/core/dependencies';
import { logger } from '../../platform/core/logger';
import { moveCampaignStatus, pageCampaigns } from './campaign-gateway';
import { enqueueCampaignMessage } from './engine-messages';

/** Paused campaigns looked at per page, and pages at most, when a project's marketing resumes. */
const PAGE_SIZE = 100;
const MAX_PAGES = 20;

/**
 * Resumes the campaigns that paused with their project's marketing (`pause.reason` `project_paused`),
 * as `POST /v1/campaigns/:id/resume` does: to processing (pending when unstarted), then the engine's
 * `resume`. A campaign paused by its caller or by its own guard stays paused. Safe to run again: a
 * crash half way is completed by the next resume of the project. Answers how many resumed.
 */
export async function resumeProjectPausedCampaigns(deps: Needs<'db' | 'queue' | 'clock'>, projectId: string): Promise<number> {
  let resumed = 0;
  let cursor: string | undefined;
  for (let page = 0; page < MAX_PAGES; page++) {
    const listed = await pageCampaigns(deps.db, projectId, { page: 1, perPage: PAGE_SIZE }, 'paused', cursor);
    for (const campaign of listed.campaigns) {
      if (campaign.pause?.reason !== 'project_paused') continue;
      const now = deps.clock.now().toISOString();
      const after = await moveCampaignStatus(deps.db, campaign.id, { from: ['paused'], to: campaign.started_at ? 'processing' : 'pending', now, remove: ['pause'] });
      if (!after) continue;
      try {
        await enqueueCampaignMessage(deps, { v: 1, kind: 'resume', campaign_id: after.id, project_id: after.project_id });
        resumed++;
      } catch (error) {
        // Without its message it would say it runs and never step: paused again, for the next resume.
        await moveCampaignStatus(deps.db, after.id, { from: [after.status], to: 'paused', now, set: { pause: campaign.pause } });
        logger.error('A campaign could not be resumed with its project', { campaignId: campaign.id, error: error as Error });
      }
    }
    if (!listed.nextCursor) break;
    cursor = listed.nextCursor;
  }
  return resumed;
}
