/**
 * The route table: the one list of HTTP routes, endpoint groups, workers and schedules.
 * The CDK stack and the local cloud both read it, so they can never disagree.
 */

/** Who may call a route: a project key (live or test), a partner key, or anyone (signed tokens). */
export type AuthKind = 'project' | 'partner' | 'public';

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

export interface RouteDefinition {
  readonly method: HttpMethod;
  /** API Gateway path syntax: `{name}` for a path parameter. */
  readonly path: string;
  readonly group: EndpointGroup;
  readonly auth: AuthKind;
  /**
   * `Idempotency-Key` handling (part 8): `supported` replays cached answers; `refused` answers 400
   * to a request that carries the header (the endpoint cannot honour it). Absent: the header is ignored.
   */
  readonly idempotency?: 'supported' | 'refused';
}

/** One Lambda per endpoint group; the entry is relative to the repository root. */
export const endpointGroups = {
  send: { entry: 'functions/send/handler.ts', description: 'Single sends' },
  activity: { entry: 'functions/activity/handler.ts', description: 'Activity queries' },
  domains: { entry: 'functions/domains/handler.ts', description: 'Sending domains and senders' },
  pages: { entry: 'functions/pages/handler.ts', description: 'Public pages reached by signed tokens' },
  tracking: { entry: 'functions/tracking/handler.ts', description: 'Open pixel and click redirect reached by signed tokens' },
  partner: { entry: 'functions/partner/handler.ts', description: 'Partner provisioning' },
  suppressions: { entry: 'functions/suppressions/handler.ts', description: 'The suppression list' },
  webhooks: { entry: 'functions/webhooks/handler.ts', description: 'Webhook signing secret and failed deliveries' },
  links: { entry: 'functions/public-links/handler.ts', description: 'Unsubscribe and view-in-browser pages' },
  templates: { entry: 'functions/templates/handler.ts', description: 'Templates' },
  'scheduled-sends': { entry: 'functions/scheduled-sends/handler.ts', description: 'Scheduled sends: read, reschedule, cancel' },
  leads: { entry: 'functions/leads/handler.ts', description: 'Leads, their segments, tags and attributes' },
  segments: { entry: 'functions/segments/handler.ts', description: 'Segments: static and dynamic' },
  events: { entry: 'functions/events/handler.ts', description: 'Custom events' },
  batches: { entry: 'functions/batches/handler.ts', description: 'Batch sends and scheduled batch management' },
  'lead-imports': { entry: 'functions/lead-imports/handler.ts', description: 'Lead imports: upload URLs, progress, error reports' },
  campaigns: { entry: 'functions/campaigns/handler.ts', description: 'Campaigns: create, read, cancel, pause and resume' },
  // `assets`: files (from the repository root) the stack copies next to the bundle: the renderer is
  // served as the package ships it, gzipped, instead of being inlined into the JavaScript bundle.
  docs: { entry: 'functions/docs/handler.ts', description: 'The OpenAPI document and the API reference page', assets: ['node_modules/rapidoc/dist/rapidoc-min.js.gz'] },
  'campaign-reports': { entry: 'functions/campaign-reports/handler.ts', description: 'Campaign reports: recipients left out, outcomes per recipient, CSV exports' },
} as const;

export type EndpointGroup = keyof typeof endpointGroups;

export const routes: readonly RouteDefinition[] = [
  { method: 'POST', path: '/v1/send-batch', group: 'batches', auth: 'project', idempotency: 'supported' },
  { method: 'GET', path: '/v1/send-batch/{batchId}', group: 'batches', auth: 'project' },
  { method: 'PATCH', path: '/v1/send-batch/{batchId}', group: 'batches', auth: 'project' },
  { method: 'DELETE', path: '/v1/send-batch/{batchId}', group: 'batches', auth: 'project' },
  { method: 'GET', path: '/v1/scheduled-sends/{id}', group: 'scheduled-sends', auth: 'project' },
  { method: 'PATCH', path: '/v1/scheduled-sends/{id}', group: 'scheduled-sends', auth: 'project' },
  { method: 'DELETE', path: '/v1/scheduled-sends/{id}', group: 'scheduled-sends', auth: 'project' },
  { method: 'GET', path: '/v1/activity/{id}', group: 'activity', auth: 'project' },
  { method: 'GET', path: '/v1/activity', group: 'activity', auth: 'project' },
  { method: 'GET', path: '/v1/domain-stats', group: 'activity', auth: 'project' },
  { method: 'GET', path: '/v1/webhooks/secret', group: 'webhooks', auth: 'project' },
  { method: 'POST', path: '/v1/webhooks/secret/rotate', group: 'webhooks', auth: 'project' },
  { method: 'GET', path: '/v1/webhooks/failures', group: 'webhooks', auth: 'project' },
  { method: 'GET', path: '/v1/suppressions', group: 'suppressions', auth: 'project' },
  { method: 'POST', path: '/v1/suppressions', group: 'suppressions', auth: 'project' },
  { method: 'POST', path: '/v1/suppressions/remove', group: 'suppressions', auth: 'project' },
  { method: 'GET', path: '/v1/suppressions/{email}', group: 'suppressions', auth: 'project' },
  { method: 'DELETE', path: '/v1/suppressions/{email}', group: 'suppressions', auth: 'project' },
  { method: 'POST', path: '/v1/templates', group: 'templates', auth: 'project' },
  { method: 'GET', path: '/v1/templates', group: 'templates', auth: 'project' },
  { method: 'GET', path: '/v1/templates/{id}', group: 'templates', auth: 'project' },
  { method: 'PUT', path: '/v1/templates/{id}', group: 'templates', auth: 'project' },
  { method: 'DELETE', path: '/v1/templates/{id}', group: 'templates', auth: 'project' },
  { method: 'POST', path: '/domains/register', group: 'domains', auth: 'project' },
  { method: 'GET', path: '/domains/health', group: 'domains', auth: 'project' },
  { method: 'POST', path: '/domains/reply', group: 'domains', auth: 'project' },
  { method: 'POST', path: '/domains/tracking', group: 'domains', auth: 'project' },
  { method: 'POST', path: '/domains/verify-email', group: 'domains', auth: 'project' },
  { method: 'GET', path: '/domains/{domain}/dns-records', group: 'domains', auth: 'project' },
  { method: 'POST', path: '/domains/{domain}/verify', group: 'domains', auth: 'project' },
  { method: 'GET', path: '/domains/{domain}/status', group: 'domains', auth: 'project' },
  { method: 'GET', path: '/domains/{domain}/domain-connect', group: 'domains', auth: 'project' },
  { method: 'POST', path: '/domains/{domain}/recreate', group: 'domains', auth: 'project' },
  { method: 'POST', path: '/v1/partner/projects', group: 'partner', auth: 'partner' },
  { method: 'GET', path: '/v1/partner/projects', group: 'partner', auth: 'partner' },
  { method: 'GET', path: '/v1/partner/projects/{projectId}', group: 'partner', auth: 'partner' },
  { method: 'PATCH', path: '/v1/partner/projects/{projectId}', group: 'partner', auth: 'partner' },
  { method: 'DELETE', path: '/v1/partner/projects/{projectId}', group: 'partner', auth: 'partner' },
  { method: 'POST', path: '/v1/partner/projects/{projectId}/reactivate', group: 'partner', auth: 'partner' },
  { method: 'POST', path: '/v1/partner/projects/{projectId}/domains', group: 'partner', auth: 'partner' },
  { method: 'GET', path: '/v1/partner/projects/{projectId}/domains', group: 'partner', auth: 'partner' },
  { method: 'GET', path: '/v1/partner/projects/{projectId}/domains/{domain}', group: 'partner', auth: 'partner' },
  { method: 'POST', path: '/v1/partner/projects/{projectId}/domains/{domain}/verify', group: 'partner', auth: 'partner' },
  { method: 'GET', path: '/v1/partner/projects/{projectId}/senders', group: 'partner', auth: 'partner' },
  { method: 'POST', path: '/v1/partner/projects/{projectId}/senders', group: 'partner', auth: 'partner' },
  { method: 'POST', path: '/v1/partner/projects/{projectId}/api-key/rotate', group: 'partner', auth: 'partner' },
  { method: 'GET', path: '/v1/partner/projects/{projectId}/stats', group: 'partner', auth: 'partner' },
  { method: 'GET', path: '/v1/partner/whoami', group: 'partner', auth: 'partner' },
  { method: 'GET', path: '/verify/{token}', group: 'pages', auth: 'public' },
  { method: 'POST', path: '/verify/{token}', group: 'pages', auth: 'public' },
  { method: 'GET', path: '/senders/confirm/{token}', group: 'pages', auth: 'public' },
  { method: 'POST', path: '/senders/confirm/{token}', group: 'pages', auth: 'public' },
  { method: 'GET', path: '/t/o/{token}', group: 'tracking', auth: 'public' },
  { method: 'GET', path: '/t/c/{token}', group: 'tracking', auth: 'public' },
  { method: 'GET', path: '/u/{token}', group: 'links', auth: 'public' },
  { method: 'POST', path: '/u/{token}', group: 'links', auth: 'public' },
  { method: 'GET', path: '/v/{token}', group: 'links', auth: 'public' },
  // Before `/v1/leads/{id}`: the local server takes the first match (API Gateway prefers the static segment itself).
  { method: 'POST', path: '/v1/leads/imports', group: 'lead-imports', auth: 'project' },
  { method: 'GET', path: '/v1/leads/imports/{id}', group: 'lead-imports', auth: 'project' },
  { method: 'POST', path: '/v1/leads/imports/{id}/start', group: 'lead-imports', auth: 'project' },
  { method: 'GET', path: '/v1/leads/imports/{id}/errors', group: 'lead-imports', auth: 'project' },
  // One path variable name per level (API Gateway refuses siblings with different names): the tags
  // and attributes routes read `{id}` as the lead's URL-encoded email.
  { method: 'POST', path: '/v1/leads', group: 'leads', auth: 'project' },
  { method: 'GET', path: '/v1/leads', group: 'leads', auth: 'project' },
  { method: 'GET', path: '/v1/leads/{id}', group: 'leads', auth: 'project' },
  { method: 'PUT', path: '/v1/leads/{id}', group: 'leads', auth: 'project' },
  { method: 'DELETE', path: '/v1/leads/{id}', group: 'leads', auth: 'project' },
  { method: 'POST', path: '/v1/leads/{id}/segments', group: 'leads', auth: 'project' },
  { method: 'DELETE', path: '/v1/leads/{id}/segments/{segmentId}', group: 'leads', auth: 'project' },
  { method: 'POST', path: '/v1/leads/{id}/tags', group: 'leads', auth: 'project' },
  { method: 'DELETE', path: '/v1/leads/{id}/tags', group: 'leads', auth: 'project' },
  { method: 'GET', path: '/v1/leads/{id}/tags', group: 'leads', auth: 'project' },
  { method: 'POST', path: '/v1/leads/{id}/attributes', group: 'leads', auth: 'project' },
  { method: 'GET', path: '/v1/leads/{id}/attributes', group: 'leads', auth: 'project' },
  { method: 'POST', path: '/v1/segments', group: 'segments', auth: 'project' },
  { method: 'GET', path: '/v1/segments', group: 'segments', auth: 'project' },
  { method: 'GET', path: '/v1/segments/{id}', group: 'segments', auth: 'project' },
  { method: 'PATCH', path: '/v1/segments/{id}', group: 'segments', auth: 'project' },
  { method: 'DELETE', path: '/v1/segments/{id}', group: 'segments', auth: 'project' },
  { method: 'POST', path: '/v1/segments/{id}/evaluate', group: 'segments', auth: 'project' },
  { method: 'POST', path: '/v1/events', group: 'events', auth: 'project' },
  { method: 'POST', path: '/v1/events/bulk', group: 'events', auth: 'project' },
  { method: 'GET', path: '/v1/events', group: 'events', auth: 'project' },
  // Campaigns (4.8); pause and resume are extensions (docs/campaigns-api.md).
  { method: 'POST', path: '/v1/campaigns', group: 'campaigns', auth: 'project' },
  { method: 'GET', path: '/v1/campaigns', group: 'campaigns', auth: 'project' },
  { method: 'GET', path: '/v1/campaigns/{id}', group: 'campaigns', auth: 'project' },
  { method: 'POST', path: '/v1/campaigns/{id}/cancel', group: 'campaigns', auth: 'project' },
  { method: 'POST', path: '/v1/campaigns/{id}/pause', group: 'campaigns', auth: 'project' },
  { method: 'POST', path: '/v1/campaigns/{id}/resume', group: 'campaigns', auth: 'project' },
  // Public: the API's description holds no project data.
  { method: 'GET', path: '/openapi.json', group: 'docs', auth: 'public' },
  { method: 'GET', path: '/docs', group: 'docs', auth: 'public' },
  { method: 'GET', path: '/docs/rapidoc.js', group: 'docs', auth: 'public' },
  // Campaign reports (issue 17, item 8): a group of their own, apart from the campaigns API group.
  { method: 'GET', path: '/v1/campaigns/{id}/recipients', group: 'campaign-reports', auth: 'project' },
  { method: 'GET', path: '/v1/campaigns/{id}/left-out', group: 'campaign-reports', auth: 'project' },
  { method: 'POST', path: '/v1/campaigns/{id}/exports', group: 'campaign-reports', auth: 'project' },
  { method: 'GET', path: '/v1/campaigns/{id}/exports/{exportId}', group: 'campaign-reports', auth: 'project' },
];

/** The route key API Gateway puts on the event (`POST /v1/send-email`). */
export function routeKey(route: Pick<RouteDefinition, 'method' | 'path'>): string {
  return `${route.method} ${route.path}`;
}

/** Queue workers: one Lambda each, fed by an SQS event source with partial batch responses. */
export const workers = {
  'send-worker': { entry: 'functions/send-worker/handler.ts', queue: 'send' },
  'ses-events': { entry: 'functions/ses-events/handler.ts', queue: 'ses-events' },
  'webhook-fanout': { entry: 'functions/webhook-fanout/handler.ts', queue: 'events' },
  'webhook-delivery': { entry: 'functions/webhook-delivery/handler.ts', queue: 'webhooks' },
  'scheduled-send-worker': { entry: 'functions/scheduled-send-worker/handler.ts', queue: 'scheduled' },
  'audience-worker': { entry: 'functions/audience-worker/handler.ts', queue: 'audience' },
  'batch-fanout': { entry: 'functions/batch-fanout/handler.ts', queue: 'fanout' },
  'batch-send-worker': { entry: 'functions/batch-send-worker/handler.ts', queue: 'batch-send' },
  'lead-import-worker': { entry: 'functions/lead-import-worker/handler.ts', queue: 'imports' },
  'campaign-engine': { entry: 'functions/campaign-engine/handler.ts', queue: 'campaigns' },
  'campaign-export-worker': { entry: 'functions/campaign-export-worker/handler.ts', queue: 'exports' },
} as const;

export type WorkerName = keyof typeof workers;

/** Functions fed by S3 notifications: inbound mail, stored by the SES receipt rule. */
export const bucketFunctions = {
  inbound: { entry: 'functions/inbound/handler.ts', description: 'Inbound replies: parses each mail the SES receipt rule stores and publishes email.inbound' },
} as const;

export type BucketFunctionName = keyof typeof bucketFunctions;

/** A job run on a timer: EventBridge Scheduler in AWS, a local timer in the local cloud. */
export interface ScheduleDefinition {
  readonly entry: string;
  /** How often it runs, in seconds. */
  readonly everySeconds: number;
}

/** Scheduled jobs; later capabilities (domain re-checks, the DNS sweep, scheduled sends) add theirs. */
export const schedules = {
  /** Pending domains (frequent on day one, then spaced) and magic-link senders. */
  'domain-recheck': { entry: 'functions/domain-recheck/handler.ts', everySeconds: 60 },
  /** SPF, DMARC, reply MX and tracking CNAME records, resolved by DNS. */
  'dns-sweep': { entry: 'functions/dns-sweep/handler.ts', everySeconds: 6 * 3600 },
  /** Scheduled sends due within the lookahead: one delayed message each on the `scheduled` queue. */
  'scheduled-sweep': { entry: 'functions/scheduled-sweep/handler.ts', everySeconds: 60 },
} as const satisfies Readonly<Record<string, ScheduleDefinition>>;

export type ScheduleName = keyof typeof schedules;
