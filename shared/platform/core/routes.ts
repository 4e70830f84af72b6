/**
 * The functions of the deployment: the endpoint groups (one Lambda each; their routes are the
 * route modules of functions/<group>/routes/, listed by functions/route-table.ts), the queue
 * workers, the bucket functions and the schedules. The CDK stack and the local cloud both read it,
 * so they can never disagree.
 */

/** Who may call a route: a project key (live or test), a partner key, or anyone (signed tokens). */
export type AuthKind = 'project' | 'partner' | 'public';

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';


/** One Lambda per endpoint group; the entry is relative to the repository root. */
export const endpointGroups = {
  send: { entry: 'functions/send/handler.ts', description: 'Single sends' },
  activity: { entry: 'functions/activity/handler.ts', description: 'Activity queries' },
  domains: { entry: 'functions/domains/handler.ts', description: 'Sending domains and senders' },
  pages: { entry: 'functions/pages/handler.ts', description: 'Public pages reached by signed tokens' },
  tracking: { entry: 'functions/tracking/handler.ts', description: 'Open pixel and click redirect reached by signed tokens' },
  partner: { entry: 'functions/partner/handler.ts', description: 'Partner provisioning' },
  suppressions: { entry: 'functions/suppressions/handler.ts', description: 'The suppression list' },
  webhooks: { entry: 'functions/webhooks/handler.ts', description: 'Webhook signing secrets, failed deliveries and the project\'s own settings' },
  links: { entry: 'functions/public-links/handler.ts', description: 'Unsubscribe and view-in-browser pages' },
  templates: { entry: 'functions/templates/handler.ts', description: 'Templates' },
  'scheduled-sends': { entry: 'functions/scheduled-sends/handler.ts', description: 'Scheduled sends: list, read, reschedule, cancel' },
  leads: { entry: 'functions/leads/handler.ts', description: 'Leads, their segments, tags and attributes' },
  segments: { entry: 'functions/segments/handler.ts', description: 'Segments: static and dynamic' },
  events: { entry: 'functions/events/handler.ts', description: 'Custom events' },
  batches: { entry: 'functions/batches/handler.ts', description: 'Batch sends, their list, and scheduled batch management' },
  'lead-imports': { entry: 'functions/lead-imports/handler.ts', description: 'Lead imports: upload URLs, progress, error reports' },
  campaigns: { entry: 'functions/campaigns/handler.ts', description: 'Campaigns: create, read, cancel, pause and resume' },
  // `assets`: files (from the repository root) the stack copies next to the bundle: the renderer is
  // served as the package ships it, gzipped, and the OpenAPI document as `npm run openapi` writes
  // it, instead of either being inlined into the JavaScript bundle.
  docs: { entry: 'functions/docs/handler.ts', description: 'The OpenAPI document and the API reference page', assets: ['node_modules/rapidoc/dist/rapidoc-min.js.gz', 'openapi/openapi.json'] },
  'campaign-reports': { entry: 'functions/campaign-reports/handler.ts', description: 'Campaign reports: recipients left out, outcomes per recipient, CSV exports' },
  automations: { entry: 'functions/automations/handler.ts', description: 'Automations: definitions, activation, enrolment, runs and statistics' },
  // The console's built files (console/build.ts, run before synth and by the local cloud) beside its bundle.
  console: { entry: 'functions/console/handler.ts', description: 'The console: its page and files, sign-in and sign-out', assets: ['console/dist/app.js', 'console/dist/app.css', 'console/dist/manifest.json'] },
} as const;

export type EndpointGroup = keyof typeof endpointGroups;


/** The route key API Gateway puts on the event (`POST /v1/send-email`). */
export function routeKey(route: { readonly method: HttpMethod; readonly path: string }): string {
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
  'automation-engine': { entry: 'functions/automation-engine/handler.ts', queue: 'automations' },
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
  /** Date-triggered automations: once per UTC day each, the next day's walk over the leads (one message per lead shard). */
  'automation-dates': { entry: 'functions/automation-dates/handler.ts', everySeconds: 3600 },
  /** Automation runs due within the lookahead: one delayed wake each on the `automations` queue. */
  'automation-sweep': { entry: 'functions/automation-sweep/handler.ts', everySeconds: 60 },
} as const satisfies Readonly<Record<string, ScheduleDefinition>>;

export type ScheduleName = keyof typeof schedules;
