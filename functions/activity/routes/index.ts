import { groupRoutes } from '../../../shared/http/route';
import { domainStats } from './domain-stats';
import { listActivity } from './list-activity';
import { readActivity } from './read-activity';

/** Endpoint group `activity`: activity queries (4.11) and per-domain statistics. */
export const activityRoutes = groupRoutes('activity', [readActivity, listActivity, domainStats]);
