/**
 * The route table: every route of the API, drawn from the route modules of each endpoint group
 * (functions/<group>/routes/). The CDK stack (routes, throttles, grants), the local cloud, the
 * OpenAPI document and the tests read it; nothing else lists routes.
 */
import type { RouteDescription } from '../shared/platform/http/route';
import { activityRoutes } from './activity/routes';
import { batchesRoutes } from './batches/routes';
import { campaignReportsRoutes } from './campaign-reports/routes';
import { automationsRoutes } from './automations/routes';
import { campaignsRoutes } from './campaigns/routes';
import { docsRoutes } from './docs/routes';
import { consoleRoutes } from './console/routes';
import { domainsRoutes } from './domains/routes';
import { eventsRoutes } from './events/routes';
import { leadImportsRoutes } from './lead-imports/routes';
import { leadsRoutes } from './leads/routes';
import { linksRoutes } from './public-links/routes';
import { pagesRoutes } from './pages/routes';
import { partnerRoutes } from './partner/routes';
import { scheduledSendsRoutes } from './scheduled-sends/routes';
import { segmentsRoutes } from './segments/routes';
import { sendRoutes } from './send/routes';
import { suppressionsRoutes } from './suppressions/routes';
import { templatesRoutes } from './templates/routes';
import { trackingRoutes } from './tracking/routes';
import { webhooksRoutes } from './webhooks/routes';

/** A route of the table. */
export type TableRoute = RouteDescription;

/** Every route, group by group. */
export const routeTable: readonly TableRoute[] = [
  sendRoutes,
  batchesRoutes,
  scheduledSendsRoutes,
  activityRoutes,
  webhooksRoutes,
  suppressionsRoutes,
  templatesRoutes,
  domainsRoutes,
  partnerRoutes,
  pagesRoutes,
  trackingRoutes,
  linksRoutes,
  leadImportsRoutes,
  leadsRoutes,
  segmentsRoutes,
  eventsRoutes,
  campaignsRoutes,
  docsRoutes,
  campaignReportsRoutes,
  automationsRoutes,
  consoleRoutes,
].flat();

/** The route of a route key (`POST /v1/send-email`). */
export function routeOf(key: string): TableRoute | undefined {
  return routeTable.find((route) => route.key === key);
}
