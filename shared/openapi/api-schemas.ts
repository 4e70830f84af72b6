import * as z from '../zod';
import { routeKey, routes, type RouteDefinition } from '../routes';
import { cursorQuerySchema, pageQuerySchema } from '../http/pagination';
import { batchBodySchema } from '../batches/batch-request';
import { batchRescheduleBodySchema } from '../batches/batch-reschedule-request';
import { rescheduleBodySchema } from '../scheduling/scheduled-send-request';
import { createTemplateBodySchema, updateTemplateBodySchema } from '../templates/template-request';
import { activityQuerySchema } from '../activity/activity-list';
import { addSuppressionsBodySchema, suppressionEmailsBodySchema, suppressionListQuerySchema } from '../suppression/suppression-request';
import { registerDomainBodySchema } from '../domains/register-request';
import { subdomainBodySchema } from '../domains/subdomain-request';
import { verifyEmailBodySchema } from '../domains/verify-email-request';
import { attributesBodySchema, leadListQuerySchema, leadUpdateBodySchema, leadUpsertBodySchema, membershipBodySchema, tagsBodySchema } from '../audience/lead-input';
import { bulkEventsBodySchema, eventBodySchema, eventListQuerySchema } from '../audience/custom-event';
import { segmentCreateBodySchema, segmentUpdateBodySchema } from '../audience/segment-request';
import { importCreateBodySchema } from '../imports/import-request';
import { campaignBodySchema } from '../campaigns/campaign-request';
import { createProjectBodySchema, domainOnboardingBodySchema, projectPatchBodySchema, senderCreationBodySchema } from '../partner/project-request';

/**
 * The API described to machines: for every route of the route table, the schemas of its body,
 * query and answer. The OpenAPI document (shared/openapi/document.ts), the docs page, the typed
 * client and the faults suite's fuzz inputs are all drawn from here.
 *
 * A schema marked `validates: true` is the one the route's handler parses with (the one source of
 * validation); every route that takes a body is so marked (test/unit/shared/openapi/validating-schemas.test.ts).
 */
export interface RouteSchemas {
  /** One line for the docs. */
  readonly summary: string;
  /** The JSON body, when the route takes one. */
  readonly body?: z.ZodMiniType;
  /** The query string parameters (an object of strings). */
  readonly query?: z.ZodMiniObject;
  /** The success answer's status and body. */
  readonly response?: { readonly status: number; readonly body: z.ZodMiniType; readonly contentType?: string };
  /** True when `body` is what the handler validates with; false when it describes a hand-written parser. */
  readonly validates?: boolean;
  /** A request body that passes `body` (shown in the docs, checked in CI). */
  readonly example?: unknown;
}

// -- shared pieces -------------------------------------------------------------------------------

const uuid = z.string().check(z.regex(/^[0-9a-f-]{36}$/i));
const anyObject = z.record(z.string(), z.unknown());
const page = pageQuerySchema.shape;
const json = (body: z.ZodMiniType, status = 200) => ({ status, body });
const ok = json(anyObject);
const created = json(anyObject, 201);

/** The error body of project routes (part 7). */
export const errorBodySchema = z.object({ error: z.string() });
/** The error body of partner routes: `error`, `code` and `error_code`, plus flat extra fields. */
export const partnerErrorBodySchema = z.looseObject({ error: z.string(), code: z.optional(z.string()), error_code: z.optional(z.string()) });

/** The answer of the single sends (4.1, 4.2). */
export const sendResponseSchema = z.object({ message: z.string(), email_id: z.nullable(uuid), project_id: uuid });

const html = { status: 200, body: z.string(), contentType: 'text/html' } as const;

// -- the registry ---------------------------------------------------------------------------------

const registry = new Map<string, RouteSchemas>();

/** Describes one route; adding a route to the API is one call (`describeRoute('POST /v1/x', {...})`). */
export function describeRoute(key: string, schemas: RouteSchemas): void {
  registry.set(key, schemas);
}

describeRoute('POST /v1/send-batch', {
  summary: 'Send to up to 10,000 recipients',
  body: batchBodySchema,
  validates: true,
  response: ok,
  example: { recipients: ['ada@example.com', { email: 'alan@example.com', data: { name: 'Alan' } }], sender: 'hello@mail.example.com', subject: 'News', html: '<p>News</p>' },
});
describeRoute('GET /v1/send-batch/{batchId}', { summary: 'A batch and its progress', response: ok });
describeRoute('PATCH /v1/send-batch/{batchId}', { summary: 'Reschedule a scheduled batch', body: batchRescheduleBodySchema, validates: true, response: ok });
describeRoute('DELETE /v1/send-batch/{batchId}', { summary: 'Cancel a batch not yet gone out', response: ok });
describeRoute('GET /v1/scheduled-sends/{id}', { summary: 'A scheduled send', response: ok });
describeRoute('PATCH /v1/scheduled-sends/{id}', { summary: 'Move a pending scheduled send', body: rescheduleBodySchema, validates: true, response: ok });
describeRoute('DELETE /v1/scheduled-sends/{id}', { summary: 'Cancel a pending scheduled send', response: ok });
describeRoute('GET /v1/activity/{id}', { summary: 'One activity record', query: z.object({ include: z.optional(z.string()) }), response: ok });
describeRoute('GET /v1/activity', {
  summary: 'Activity records, newest first',
  query: z.looseObject({ ...page, ...cursorQuerySchema.shape, ...activityQuerySchema.shape }),
  response: ok,
});
describeRoute('GET /v1/domain-stats', { summary: 'Statistics per sender domain', query: z.looseObject({}), response: ok });
describeRoute('GET /v1/webhooks/secret', { summary: 'The webhook signing secret', response: ok });
describeRoute('POST /v1/webhooks/secret/rotate', { summary: 'Rotate the webhook signing secret', response: ok });
describeRoute('GET /v1/webhooks/failures', { summary: 'Webhook deliveries that failed for good', query: z.looseObject({ ...page, ...cursorQuerySchema.shape }), response: ok });
describeRoute('GET /v1/suppressions', { summary: 'The suppression list', query: z.looseObject({ ...page, ...cursorQuerySchema.shape, ...suppressionListQuerySchema.shape }), response: ok });
describeRoute('POST /v1/suppressions', { summary: 'Suppress addresses', body: addSuppressionsBodySchema, validates: true, response: ok });
describeRoute('POST /v1/suppressions/remove', { summary: 'Remove addresses from the suppression list', body: suppressionEmailsBodySchema, validates: true, response: ok });
describeRoute('GET /v1/suppressions/{email}', { summary: 'One suppressed address', response: ok });
describeRoute('DELETE /v1/suppressions/{email}', { summary: 'Remove one address from the suppression list', response: ok });
describeRoute('POST /v1/templates', { summary: 'Create a template', body: createTemplateBodySchema, validates: true, response: created, example: { name: 'Welcome', subject: 'Hi {{name}}', html: '<p>Hi {{name}}</p>' } });
describeRoute('GET /v1/templates', { summary: 'Templates (html empty in the list)', query: z.looseObject({ ...page, search: z.optional(z.string()), ...cursorQuerySchema.shape }), response: ok });
describeRoute('GET /v1/templates/{id}', { summary: 'One template, by uuid or internal id', response: ok });
describeRoute('PUT /v1/templates/{id}', { summary: 'Update a template', body: updateTemplateBodySchema, validates: true, response: ok });
describeRoute('DELETE /v1/templates/{id}', { summary: 'Delete a template not in use', response: ok });
describeRoute('POST /domains/register', {
  summary: 'Register a sending domain and its sender',
  body: registerDomainBodySchema,
  validates: true,
  response: created,
  example: { domain: 'mail.example.com', sender_name: 'Example', sender_email: 'hello@mail.example.com' },
});
describeRoute('GET /domains/health', { summary: 'Health of every domain of the project', response: ok });
describeRoute('POST /domains/reply', { summary: 'Set up the reply domain', body: subdomainBodySchema, validates: true, response: ok, example: { domain: 'mail.example.com' } });
describeRoute('POST /domains/tracking', { summary: 'Set up the tracking domain', body: subdomainBodySchema, validates: true, response: ok, example: { domain: 'mail.example.com' } });
describeRoute('POST /domains/verify-email', {
  summary: 'Verify a sender address by magic link',
  body: verifyEmailBodySchema,
  validates: true,
  response: ok,
  example: { email: 'owner@example.com', name: 'Owner' },
});
describeRoute('GET /domains/{domain}/dns-records', { summary: 'The DNS records to publish', response: ok });
describeRoute('POST /domains/{domain}/verify', { summary: 'Check verification now', response: ok });
describeRoute('GET /domains/{domain}/status', { summary: 'Verification status', response: ok });
describeRoute('GET /domains/{domain}/domain-connect', { summary: 'One-click DNS setup link', response: ok });
describeRoute('POST /domains/{domain}/recreate', { summary: 'Recreate a failed identity', response: ok });
describeRoute('POST /v1/partner/projects', {
  summary: 'Create a project (optionally with its domain and sender)',
  body: createProjectBodySchema,
  validates: true,
  response: created,
  example: { name: 'Acme', external_key: 'acme-1' },
});
describeRoute('GET /v1/partner/projects', { summary: 'The organization\'s projects', query: z.looseObject(page), response: ok });
describeRoute('GET /v1/partner/projects/{projectId}', { summary: 'One project', response: ok });
describeRoute('PATCH /v1/partner/projects/{projectId}', { summary: 'Update a project', body: projectPatchBodySchema, validates: true, response: ok, example: { timezone: 'Europe/Paris', webhook_url: 'https://hooks.example.com/mail' } });
describeRoute('DELETE /v1/partner/projects/{projectId}', { summary: 'Disable a project', response: ok });
describeRoute('POST /v1/partner/projects/{projectId}/reactivate', { summary: 'Reactivate a disabled project', response: ok });
describeRoute('POST /v1/partner/projects/{projectId}/domains', { summary: 'Onboard a domain and sender', body: domainOnboardingBodySchema, validates: true, response: created, example: { domain: 'mail.acme.com', sender: { name: 'Acme', email: 'hello@mail.acme.com' } } });
describeRoute('GET /v1/partner/projects/{projectId}/domains', { summary: 'The project\'s domains', response: ok });
describeRoute('GET /v1/partner/projects/{projectId}/domains/{domain}', { summary: 'One domain with its records', response: ok });
describeRoute('POST /v1/partner/projects/{projectId}/domains/{domain}/verify', { summary: 'Force verification', response: ok });
describeRoute('GET /v1/partner/projects/{projectId}/senders', { summary: 'The project\'s senders', response: ok });
describeRoute('POST /v1/partner/projects/{projectId}/senders', { summary: 'Create a sender', body: senderCreationBodySchema, validates: true, response: created, example: { name: 'Acme', email: 'news@mail.acme.com' } });
describeRoute('POST /v1/partner/projects/{projectId}/api-key/rotate', { summary: 'Rotate the project key', response: ok });
describeRoute('GET /v1/partner/projects/{projectId}/stats', { summary: 'Delivery metrics', response: ok });
describeRoute('GET /v1/partner/whoami', { summary: 'The organization and its quota', response: ok });
describeRoute('GET /verify/{token}', { summary: 'Public domain verification page', response: html });
describeRoute('POST /verify/{token}', { summary: 'The verification page\'s verify button', response: ok });
describeRoute('GET /senders/confirm/{token}', { summary: 'Sender confirmation page', response: html });
describeRoute('POST /senders/confirm/{token}', { summary: 'Confirm a sender', response: html });
describeRoute('GET /t/o/{token}', { summary: 'Open pixel', response: { status: 200, body: z.string(), contentType: 'image/gif' } });
describeRoute('GET /t/c/{token}', { summary: 'Click redirect', response: { status: 302, body: z.string() } });
describeRoute('GET /u/{token}', { summary: 'Unsubscribe page', response: html });
describeRoute('POST /u/{token}', { summary: 'Unsubscribe (RFC 8058 one-click)', response: html });
describeRoute('GET /v/{token}', { summary: 'View in browser', response: html });
describeRoute('POST /v1/leads/imports', { summary: 'Start a lead import (upload URL or inline content)', body: importCreateBodySchema, validates: true, response: created, example: { format: 'csv', content: 'email,first_name\nada@example.com,Ada\n' } });
describeRoute('GET /v1/leads/imports/{id}', { summary: 'An import\'s progress', response: ok });
describeRoute('POST /v1/leads/imports/{id}/start', { summary: 'Start an uploaded import', response: ok });
describeRoute('GET /v1/leads/imports/{id}/errors', { summary: 'Rows that failed (CSV)', response: { status: 200, body: z.string(), contentType: 'text/csv' } });
describeRoute('POST /v1/leads', { summary: 'Upsert a lead or up to 1,000 leads', body: leadUpsertBodySchema, validates: true, response: ok, example: { email: 'ada@example.com', data: { plan: 'pro' } } });
// The page parameters are read by the pagination module; the lead and event filters by their schemas.
describeRoute('GET /v1/leads', { summary: 'Leads', query: z.object({ ...page, ...leadListQuerySchema.shape }), response: ok });
describeRoute('GET /v1/leads/{id}', { summary: 'One lead, by id or email', response: ok });
describeRoute('PUT /v1/leads/{id}', { summary: 'Update a lead', body: leadUpdateBodySchema, validates: true, response: ok });
describeRoute('DELETE /v1/leads/{id}', { summary: 'Delete a lead', response: ok });
describeRoute('POST /v1/leads/{id}/segments', { summary: 'Add a lead to segments', body: membershipBodySchema, validates: true, response: ok });
describeRoute('DELETE /v1/leads/{id}/segments/{segmentId}', { summary: 'Remove a lead from a segment', response: ok });
describeRoute('POST /v1/leads/{id}/tags', { summary: 'Add tags', body: tagsBodySchema, validates: true, response: ok });
describeRoute('DELETE /v1/leads/{id}/tags', { summary: 'Remove tags', body: tagsBodySchema, validates: true, response: ok });
describeRoute('GET /v1/leads/{id}/tags', { summary: 'A lead\'s tags', response: ok });
describeRoute('POST /v1/leads/{id}/attributes', { summary: 'Set attributes', body: attributesBodySchema, validates: true, response: ok });
describeRoute('GET /v1/leads/{id}/attributes', { summary: 'A lead\'s attributes', response: ok });
describeRoute('POST /v1/segments', { summary: 'Create a segment', body: segmentCreateBodySchema, validates: true, response: created, example: { name: 'VIP buyers', filter: { match: 'all', conditions: [{ tags: { any: ['vip'] } }, { event: 'purchase', done: true, within_days: 30 }] } } });
describeRoute('GET /v1/segments', { summary: 'Segments', query: z.looseObject(page), response: ok });
describeRoute('GET /v1/segments/{id}', { summary: 'One segment', response: ok });
describeRoute('PATCH /v1/segments/{id}', { summary: 'Rename a segment', body: segmentUpdateBodySchema, validates: true, response: ok });
describeRoute('DELETE /v1/segments/{id}', { summary: 'Delete a segment', response: ok });
describeRoute('POST /v1/segments/{id}/evaluate', { summary: 'Evaluate a dynamic segment now', response: ok });
describeRoute('POST /v1/events', { summary: 'Record a custom event', body: eventBodySchema, validates: true, response: created, example: { email: 'ada@example.com', event: 'signed_up', properties: { plan: 'pro' } } });
describeRoute('POST /v1/events/bulk', { summary: 'Record up to 1,000 events', body: bulkEventsBodySchema, validates: true, response: ok, example: { events: [{ email: 'ada@example.com', event: 'signed_up' }] } });
describeRoute('GET /v1/events', { summary: 'Custom events', query: z.object({ ...page, ...cursorQuerySchema.shape, ...eventListQuerySchema.shape }), response: ok });
// Campaigns (4.8; pause, resume, segmentId, followUp and the report are extensions: docs/campaigns-api.md).
describeRoute('POST /v1/campaigns', {
  summary: 'Create a campaign (answers in `initializing`; 409 `duplicate_campaign` unless `confirmDuplicate`)',
  body: campaignBodySchema,
  validates: true,
  response: ok,
  example: { name: 'November newsletter', templateId: '00000000-0000-4000-8000-000000000001', senderProfileId: '00000000-0000-4000-8000-000000000002', selectAllRecipients: true, recipientCount: 1000 },
});
/** The `next_cursor` of a filtered report's previous page. */
const reportCursor = z.optional(z.string().check(z.meta({ description: 'The previous answer\'s `pagination.next_cursor`' })));
describeRoute('GET /v1/campaigns', { summary: 'Campaigns, newest first', query: z.looseObject({ ...page, status: z.optional(z.string()), ...cursorQuerySchema.shape }), response: ok });
describeRoute('GET /v1/campaigns/{id}', { summary: 'A campaign and its metrics (from counters)', response: ok });
describeRoute('POST /v1/campaigns/{id}/cancel', { summary: 'Cancel a campaign (soft cutoff; 409 `NOT_CANCELLABLE`)', response: ok });
describeRoute('POST /v1/campaigns/{id}/pause', { summary: 'Pause a campaign (409 `NOT_PAUSABLE`)', response: ok });
describeRoute('POST /v1/campaigns/{id}/resume', { summary: 'Resume a paused campaign (409 `NOT_RESUMABLE`)', response: ok });
describeRoute('GET /v1/campaigns/{id}/recipients', {
  summary: 'The outcome per recipient, paged (with `status`: by `cursor`, reading at most 10 records per row of the page)',
  query: z.looseObject({ ...page, status: z.optional(z.string()), cursor: reportCursor }),
  response: ok,
});
describeRoute('GET /v1/campaigns/{id}/left-out', {
  summary: 'Recipients left out, and why, paged by `cursor` (at most 10 records read per row of the page)',
  query: z.looseObject({ ...page, reason: z.optional(z.string()), cursor: reportCursor }),
  response: ok,
});
describeRoute('POST /v1/campaigns/{id}/exports', { summary: 'Start a CSV export of every outcome', response: json(anyObject, 202) });
describeRoute('GET /v1/campaigns/{id}/exports/{exportId}', { summary: 'An export\'s progress and, once done, its download link', response: ok });
describeRoute('GET /openapi.json', { summary: 'This document', response: ok });
describeRoute('GET /docs', { summary: 'The API reference page', response: html });
describeRoute('GET /docs/rapidoc.js', { summary: 'The reference page\'s renderer (RapiDoc, bundled)', response: { status: 200, body: z.string(), contentType: 'text/javascript' } });

/** One route of the route table with its schemas. */
export interface DescribedRoute {
  readonly route: RouteDefinition;
  readonly schemas: RouteSchemas;
}

/** Every route of the route table with its schemas, in the table's order; throws on a route not described. */
export function listRouteSchemas(): DescribedRoute[] {
  return routes.map((route) => {
    const schemas = registry.get(routeKey(route));
    if (!schemas) throw new Error(`Route ${routeKey(route)} has no schemas in shared/openapi/api-schemas.ts`);
    return { route, schemas };
  });
}

/** The schemas of one route (`POST /v1/send-email`), if described. */
export function schemasOf(key: string): RouteSchemas | undefined {
  return registry.get(key);
}

/** Route keys described here that the route table does not have (a stale description). */
export function describedButNotRouted(): string[] {
  const routed = new Set(routes.map(routeKey));
  return [...registry.keys()].filter((key) => !routed.has(key));
}
