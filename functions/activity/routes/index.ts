import { groupRoutes } from '../../../shared/platform/http/route';
import { domainStats } from './domain-stats';
import { listActivity } from './list-activity';
import { projectStats } from './project-stats';
import { readActivity } from './read-activity';

/** Endpoint group `activity`: activity queries (4.11), per-domain statistics and the project's statistics over time. */
export const activityRoutes = groupRoutes('activity', [readActivity, listActivity, domainStats, projectStats]);
