import { DEMO_DOMAIN } from '../../local/seed';
import { services } from '../../composition/services';
import { listSenders } from '../../shared/identities/domains/sender-repository';
import { attemptEntry, logDeliveryAttempt } from '../../shared/notifications/webhooks/delivery-log';
import type { WebhookJob } from '../../shared/notifications/webhooks/webhook-job';
import { createOrganization, issuePartnerKey } from '../../shared/platform/organizations/organization-service';
import { routeKey } from '../../shared/platform/core/routes';
import type { TableRoute as RouteDefinition } from '../../functions/route-table';
import { routeTable as routes } from '../../functions/route-table';
import { CLOUD_TIMEOUT_MS, sendBody, startTestCloud, type TestCloud } from '../integration/support/test-cloud';
import { reportFigures } from './support/report';

/**
 * Issue 19, part 3: a tenant-isolation matrix generated from the route table. Every route with a
 * path parameter is called with the ids of the seeded project (organization A) by intruders: both
 * keys of another project of the same organization, the live key of a project of another
 * organization, and, for partner routes, the other organization's partner key. Each answers 404
 * and changes nothing. The owner's own calls answer anything but 404 (the fixture is real).
 *
 * Key mode is not a tenant boundary: spec part 5 (rules 1 and 2) infers the project from the key
 * and lets every endpoint take both keys; the mode only flags traffic (`is_test`). So the other
 * mode's key of the owning project must answer as the owner's does, and the other mode's key of
 * another project answers 404 like its live key (docs/decisions.md).
 *
 * Public routes take signed tokens, not ids, and are left out by their auth kind. A route added
 * with a path parameter and no entry in FIXTURES fails the first test.
 */

let cloud: TestCloud;
/** Values per path parameter, per route path: the owner's (organization A's seeded project) resources. */
let FIXTURES: Record<string, Record<string, string>>;
/** A valid body per route key, so that validation cannot answer before the lookup. */
let BODIES: Record<string, unknown>;
let intruders: { name: string; key: string; auth: 'project' | 'partner' }[];
const FIXTURE_PATHS = [
  '/v1/send-batch/{batchId}',
  '/v1/scheduled-sends/{id}',
  '/v1/activity/{id}',
  '/v1/suppressions/{email}',
  '/v1/templates/{id}',
  '/domains/{domain}',
  '/domains/{domain}/dns-records',
  '/domains/{domain}/verify',
  '/domains/{domain}/status',
  '/domains/{domain}/domain-connect',
  '/domains/{domain}/recreate',
  '/v1/partner/projects/{projectId}',
  '/v1/partner/projects/{projectId}/reactivate',
  '/v1/partner/projects/{projectId}/domains',
  '/v1/partner/projects/{projectId}/domains/{domain}',
  '/v1/partner/projects/{projectId}/domains/{domain}/verify',
  '/v1/partner/projects/{projectId}/senders',
  '/v1/partner/projects/{projectId}/api-key/rotate',
  '/v1/partner/projects/{projectId}/stats',
  '/v1/webhooks/deliveries/{id}/redeliver',
  '/v1/leads/imports/{id}',
  '/v1/leads/imports/{id}/start',
  '/v1/leads/imports/{id}/errors',
  '/v1/leads/{id}',
  '/v1/leads/{id}/segments',
  '/v1/leads/{id}/segments/{segmentId}',
  '/v1/leads/{id}/tags',
  '/v1/leads/{id}/attributes',
  '/v1/segments/{id}',
  '/v1/segments/{id}/evaluate',
  '/v1/campaigns/{id}',
  '/v1/campaigns/{id}/cancel',
  '/v1/campaigns/{id}/pause',
  '/v1/campaigns/{id}/resume',
  '/v1/campaigns/{id}/recipients',
  '/v1/campaigns/{id}/left-out',
  '/v1/campaigns/{id}/exports',
  '/v1/campaigns/{id}/exports/{exportId}',
];

const later = (hours: number) => new Date(Date.now() + hours * 3600_000).toISOString();

beforeAll(async () => {
  cloud = await startTestCloud({ workers: false });
  const owner = cloud.seed.live_key;
  const call = async (method: string, path: string, body?: unknown, key: string = owner) => {
    const res = await cloud.api(method, path, { key, body });
    if (res.status >= 300) throw new Error(`Fixture ${method} ${path}: ${res.status} ${JSON.stringify(res.body)}`);
    return res.body as Record<string, any>;
  };
  const lead = 'owned-lead@example.com';
  const segment = (await call('POST', '/v1/segments', { name: 'Owned' })).segment.id as string;
  const leadId = (await call('POST', '/v1/leads', { email: lead, segment_ids: [segment], data: { plan: 'pro' } })).leads[0].id as string;
  await call('POST', `/v1/leads/${encodeURIComponent(lead)}/tags`, { tags: ['vip'] });
  await call('POST', '/v1/events', { email: lead, event: 'owned' });
  const template = (await call('POST', '/v1/templates', { name: 'Owned', subject: 'Hi', html: '<p>Hi</p>' })).data.id as string;
  const batch = (await call('POST', '/v1/send-batch', { sender: cloud.seed.sender_email, subject: 'Owned', html: '<p>Hi</p>', recipients: ['a@example.com'], scheduled_at: later(2) })).batch_id as string;
  const scheduled = (await call('POST', '/send-email', { recipient: 'a@example.com', sender: cloud.seed.sender_email, subject: 'Later', html: '<p>Later</p>', scheduled_at: later(2) })).scheduled_send_id as string;
  const activity = (await call('POST', '/v1/send-email', sendBody(cloud))).email_id as string;
  // An entry of the project's webhook delivery log (the workers do not run here: logged as the delivery worker would).
  const hook: WebhookJob = {
    v: 1,
    delivery_id: 'msg_00000000-0000-4000-8000-00000000a1a1',
    project_id: cloud.seed.project_id,
    url: 'https://hooks.example.com/owned',
    slot: 'live',
    event: { event: 'email.send', timestamp: new Date().toISOString(), project_id: cloud.seed.project_id, is_test: false, data: { activity_id: activity } } as WebhookJob['event'],
    max_attempts: 5,
  };
  await logDeliveryAttempt(services().db, hook, attemptEntry(hook, 1, { ok: false, status: 500, error: 'HTTP 500' }, new Date(), 12), new Date());
  const delivery = (await call('GET', '/v1/webhooks/deliveries')).data[0].id as string;
  const suppressed = 'owned-suppressed@example.com';
  await call('POST', '/v1/suppressions', { email: suppressed });
  const leadImport = (await call('POST', '/v1/leads/imports', { format: 'csv', content: 'email\nimported@example.com\n' })).import.id as string;
  const projectId = cloud.seed.project_id;
  // A campaign to the owned lead (the engine does not run here: it stays `initializing`), and an export of it.
  const senderProfileId = (await listSenders(services().db, projectId))[0].id;
  const campaign = (await call('POST', '/v1/campaigns', { name: 'Owned', templateId: template, senderProfileId, recipientIds: [leadId] })).campaign.id as string;
  const campaignExport = (await call('POST', `/v1/campaigns/${campaign}/exports`)).export.id as string;

  // Intruders: another project of organization A (both keys), a project of organization B, B's partner key.
  const sibling = await call('POST', '/v1/partner/projects', { name: 'Sibling' }, cloud.seed.partner_key);
  const siblingTest = (await call('POST', `/v1/partner/projects/${sibling.project_id}/api-key/rotate`, { mode: 'test' }, cloud.seed.partner_key)).api_key as string;
  const { db, clock } = services();
  const orgB = await createOrganization(db, clock, { name: 'Organization B' });
  const partnerB = (await issuePartnerKey(db, clock, orgB.id)).key;
  const foreign = await call('POST', '/v1/partner/projects', { name: 'Foreign' }, partnerB);
  intruders = [
    { name: 'another project (live key)', key: sibling.api_key as string, auth: 'project' },
    { name: 'another project (test key)', key: siblingTest, auth: 'project' },
    { name: 'another organization (live key)', key: foreign.api_key as string, auth: 'project' },
    { name: 'another organization (partner key)', key: partnerB, auth: 'partner' },
  ];

  // A fixture read from the wrong field would make every intruder's 404 prove nothing.
  for (const [name, value] of Object.entries({ segment, leadId, template, batch, scheduled, activity, leadImport, campaign, campaignExport, delivery })) {
    if (typeof value !== 'string' || value.length < 8) throw new Error(`Fixture ${name} is ${String(value)}`);
  }
  const byLead = { id: leadId };
  const byEmail = { id: encodeURIComponent(lead) };
  FIXTURES = {
    '/v1/send-batch/{batchId}': { batchId: batch },
    '/v1/scheduled-sends/{id}': { id: scheduled },
    '/v1/activity/{id}': { id: activity },
    '/v1/webhooks/deliveries/{id}/redeliver': { id: delivery },
    '/v1/suppressions/{email}': { email: encodeURIComponent(suppressed) },
    '/v1/templates/{id}': { id: template },
    ...Object.fromEntries(FIXTURE_PATHS.filter((p) => p.startsWith('/domains/')).map((p) => [p, { domain: DEMO_DOMAIN }])),
    ...Object.fromEntries(FIXTURE_PATHS.filter((p) => p.startsWith('/v1/partner/')).map((p) => [p, { projectId, domain: DEMO_DOMAIN }])),
    '/v1/leads/imports/{id}': { id: leadImport },
    '/v1/leads/imports/{id}/start': { id: leadImport },
    '/v1/leads/imports/{id}/errors': { id: leadImport },
    '/v1/leads/{id}': byLead,
    '/v1/leads/{id}/segments': byLead,
    '/v1/leads/{id}/segments/{segmentId}': { ...byLead, segmentId: segment },
    '/v1/leads/{id}/tags': byEmail,
    '/v1/leads/{id}/attributes': byEmail,
    '/v1/segments/{id}': { id: segment },
    '/v1/segments/{id}/evaluate': { id: segment },
    ...Object.fromEntries(FIXTURE_PATHS.filter((p) => p.startsWith('/v1/campaigns/')).map((p) => [p, { id: campaign, exportId: campaignExport }])),
  };
  BODIES = {
    'PATCH /v1/send-batch/{batchId}': { scheduled_at: later(3) },
    'PATCH /v1/scheduled-sends/{id}': { scheduled_at: later(3) },
    'PUT /v1/templates/{id}': { name: 'Taken', subject: 'Taken', html: '<p>Taken</p>' },
    'POST /domains/{domain}/verify': {},
    'POST /domains/{domain}/recreate': {},
    'PATCH /v1/partner/projects/{projectId}': { name: 'Taken' },
    'POST /v1/partner/projects/{projectId}/reactivate': {},
    'POST /v1/partner/projects/{projectId}/domains': { domain: 'taken.example.com', sender: { name: 'Taken', email: 'x@taken.example.com' } },
    'POST /v1/partner/projects/{projectId}/domains/{domain}/verify': {},
    'POST /v1/partner/projects/{projectId}/senders': { name: 'Taken', email: `taken@${DEMO_DOMAIN}` },
    'POST /v1/partner/projects/{projectId}/api-key/rotate': {},
    'POST /v1/leads/imports/{id}/start': {},
    'PUT /v1/leads/{id}': { data: { taken: true } },
    'POST /v1/leads/{id}/segments': { segment_ids: [segment] },
    'POST /v1/leads/{id}/tags': { tags: ['taken'] },
    'DELETE /v1/leads/{id}/tags': { tags: ['vip'] },
    'POST /v1/leads/{id}/attributes': { taken: true },
    'PATCH /v1/segments/{id}': { name: 'Taken' },
    'POST /v1/segments/{id}/evaluate': {},
  };
}, CLOUD_TIMEOUT_MS);
afterAll(() => cloud?.stop());

const hasParameter = (r: RouteDefinition) => /\{\w+\}/.test(r.path);
const matrixRoutes = () => routes.filter((r) => hasParameter(r) && r.auth !== 'public');
const pathOf = (route: RouteDefinition) => route.path.replace(/\{(\w+)\}/g, (_m, name: string) => FIXTURES[route.path]?.[name] ?? `{${name}}`);

describe('the isolation matrix covers the route table', () => {
  test('every route with a path parameter (but the public, token-signed ones) has a fixture for each of its parameters', () => {
    const missing = matrixRoutes().filter((r) => [...r.path.matchAll(/\{(\w+)\}/g)].some((m) => FIXTURES[r.path]?.[m[1]] === undefined));
    expect(missing.map(routeKey)).toEqual([]);
    // The groups issue 19 names are in it.
    const groups = new Set(matrixRoutes().map((r) => r.group));
    for (const group of ['leads', 'segments', 'batches', 'lead-imports', 'activity', 'templates', 'campaigns', 'campaign-reports']) expect(groups).toContain(group);
  });
});

describe('an id of another tenant answers 404 on every route', () => {
  test('each intruder gets 404 from every route with the owner\'s ids, and the owner\'s resources are unchanged', async () => {
    const answers: string[] = [];
    let calls = 0;
    // Reads first, then writes, deletes last: an intruder's delete that went through would show in the reads after.
    const order: Record<string, number> = { GET: 0, POST: 1, PUT: 1, PATCH: 1, DELETE: 2 };
    const ordered = [...matrixRoutes()].sort((a, b) => order[a.method] - order[b.method]);
    for (const intruder of intruders) {
      for (const route of ordered.filter((r) => (r.auth === 'partner') === (intruder.auth === 'partner'))) {
        const res = await cloud.api(route.method, pathOf(route), { key: intruder.key, body: BODIES[routeKey(route)] });
        calls++;
        if (res.status !== 404) answers.push(`${intruder.name}: ${routeKey(route)} -> ${res.status} ${JSON.stringify(res.body).slice(0, 160)}`);
      }
    }
    reportFigures('isolation', { routes: matrixRoutes().length, intruders: intruders.length, calls, not404: answers.length });
    expect(answers).toEqual([]);
    expect(calls).toBeGreaterThan(matrixRoutes().length * 2);
  });

  test('the owner reaches every fixture with either key (the 404s above are not bad fixtures; mode is not a tenant)', async () => {
    const wrong: string[] = [];
    for (const route of matrixRoutes().filter((r) => r.method === 'GET')) {
      const keys = route.auth === 'partner' ? [cloud.seed.partner_key] : [cloud.seed.live_key, cloud.seed.test_key];
      for (const key of keys) {
        // Raw: some answers are CSV (an import's error report).
        const res = await fetch(`${cloud.baseUrl}${pathOf(route)}`, { headers: { authorization: `Bearer ${key}` } });
        if (res.status === 404 || res.status >= 500) wrong.push(`${routeKey(route)} (${key.slice(0, 8)}) -> ${res.status} ${(await res.text()).slice(0, 160)}`);
      }
    }
    expect(wrong).toEqual([]);
    // The intruders' writes changed nothing.
    const template = await cloud.api('GET', pathOf(routes.find((r) => r.path === '/v1/templates/{id}')!));
    expect((template.body.data as { name: string }).name).toBe('Owned');
    const segment = await cloud.api('GET', pathOf(routes.find((r) => r.path === '/v1/segments/{id}')!));
    expect(JSON.stringify(segment.body)).toContain('"Owned"');
    const attributes = await cloud.api('GET', pathOf(routes.find((r) => r.path === '/v1/leads/{id}/attributes')!));
    expect(attributes.body.data).toEqual({ plan: 'pro' });
    const tags = await cloud.api('GET', pathOf(routes.find((r) => r.path === '/v1/leads/{id}/tags')!));
    expect(tags.body.tags).toEqual(['vip']);
    // No intruder's cancel or pause moved the owner's campaign.
    const campaign = await cloud.api('GET', pathOf(routes.find((r) => r.path === '/v1/campaigns/{id}')!));
    expect((campaign.body.campaign as { status: string }).status).toBe('initializing');
  });

  test('another tenant\'s lead and segment ids filter nothing in: GET /v1/events and /v1/leads of the intruder show none of the owner\'s', async () => {
    const segment = FIXTURES['/v1/segments/{id}'].id;
    for (const intruder of intruders.filter((i) => i.auth === 'project')) {
      const events = await cloud.api('GET', `/v1/events?email=${encodeURIComponent('owned-lead@example.com')}`, { key: intruder.key });
      expect(events.status).toBe(200);
      expect(events.body.data).toEqual([]);
      const leads = await cloud.api('GET', `/v1/leads?segment_id=${segment}`, { key: intruder.key });
      expect(leads.status === 404 || (leads.status === 200 && (leads.body.data as unknown[]).length === 0)).toBe(true);
    }
  });
});
