/**
 * The route table: every route of the API, drawn from the route modules of each endpoint group
 * (functions/<group>/routes/). The CDK stack (routes, throttles, grants), the local cloud, the
 * OpenAPI document and the tests read it; nothing else lists routes.
 */
import { schemasOf } from '../shared/openapi/api-schemas';
import type { RouteDescription, ThrottleClass } from '../shared/http/route';
import { routeKey, routes as legacyRoutes, type EndpointGroup } from '../shared/routes';
import { activityRoutes } from './activity/routes';
import { batchesRoutes } from './batches/routes';
import { campaignReportsRoutes } from './campaign-reports/routes';
import { campaignsRoutes } from './campaigns/routes';
import { docsRoutes } from './docs/routes';
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

const LEGACY_THROTTLE: Partial<Record<EndpointGroup, ThrottleClass>> = { pages: 'verify', tracking: 'tracking', links: 'links', docs: 'links' };

/** Routes not yet moved into modules, described by shared/openapi/api-schemas.ts. */
const legacy: TableRoute[] = legacyRoutes.map((route) => {
  const key = routeKey(route);
  const schemas = schemasOf(key);
  if (!schemas) throw new Error(`Route ${key} has no schemas in shared/openapi/api-schemas.ts`);
  const response = schemas.response ?? { status: 200, body: undefined };
  return {
    key,
    method: route.method,
    path: route.path,
    group: route.group,
    auth: route.auth,
    idempotency: route.idempotency,
    throttle: route.auth === 'public' ? LEGACY_THROTTLE[route.group] : undefined,
    summary: schemas.summary,
    body: schemas.body,
    bodyExample: schemas.example,
    query: schemas.query,
    answers: { [response.status]: { description: schemas.summary, schema: response.status === 302 ? undefined : response.body, contentType: schemas.response?.contentType } },
  };
});

/** Every route. */
const modules: readonly TableRoute[] = [
  sendRoutes,
  activityRoutes,
  domainsRoutes,
  pagesRoutes,
  trackingRoutes,
  partnerRoutes,
  suppressionsRoutes,
  webhooksRoutes,
  linksRoutes,
  templatesRoutes,
  scheduledSendsRoutes,
  leadsRoutes,
  segmentsRoutes,
  eventsRoutes,
  batchesRoutes,
  leadImportsRoutes,
  campaignsRoutes,
  docsRoutes,
  campaignReportsRoutes
].flat();

const inModules = new Set(modules.map((route) => route.key));

/** Every route: those of the route modules, and those not yet moved into one. */
export const routeTable: readonly TableRoute[] = [...modules, ...legacy.filter((route) => !inModules.has(route.key))];

/** The route of a route key (`POST /v1/send-email`). */
export function routeOf(key: string): TableRoute | undefined {
  return routeTable.find((route) => route.key === key);
}
