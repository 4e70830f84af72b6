import fc from 'fast-check';
import { DEMO_DOMAIN } from '../../local/seed';
import { services } from '../../composition/services';
import { listSenders } from '../../shared/identities/domains/sender-repository';
import { RESERVED_KEYS } from '../../shared/platform/core/reserved-keys';
import { routeKey } from '../../shared/platform/core/routes';
import type { TableRoute as RouteDefinition } from '../../functions/route-table';
import { routeTable as routes } from '../../functions/route-table';
import { CLOUD_TIMEOUT_MS, startTestCloud, type TestCloud } from './support/test-cloud';
import { reportFigures } from '../faults/support/report';

/**
 * fast-check draws valid and broken bodies, path parameters and query strings for every route of
 * the route table; none may answer 500. Then, for the routes that create something, every
 * accepted request's effect is read back. Per-route arbitraries are written here; a route without
 * one still gets arbitrary JSON. Part of `npm test` (about half a minute) with a fresh seed each
 * run, so that every CI run tries new cases; a failure names its seed, and FUZZ_SEED replays it.
 * FUZZ_RUNS (cases per route, default 4) enlarges a run (the fault suite's soak).
 */

const RUNS = Number(process.env.FUZZ_RUNS ?? 4);
const SEED = Number(process.env.FUZZ_SEED ?? Date.now() % 1_000_000);
/** How to run this very set of cases again. */
const REPLAY = `FUZZ_SEED=${SEED} npx jest test/integration/fuzz.test.ts --selectProjects integration`;

let cloud: TestCloud;
let ids: Record<string, string>;
let cases = 0;
const fiveHundreds: string[] = [];

beforeAll(async () => {
  cloud = await startTestCloud({ workers: false });
  const ok = async (method: string, path: string, body: unknown, key = cloud.seed.live_key) => (await cloud.api(method, path, { body, key })).body as Record<string, any>;
  ids = {
    template: (await ok('POST', '/v1/templates', { name: 'Fuzz', subject: 'Hi', html: '<p>Hi</p>' })).data.id,
    segment: (await ok('POST', '/v1/segments', { name: 'Fuzz' })).segment.id,
    lead: (await ok('POST', '/v1/leads', { email: 'fuzz-lead@example.com' })).leads[0].id,
    project: (await ok('POST', '/v1/partner/projects', { name: 'Fuzz client' }, cloud.seed.partner_key)).project_id,
    sender: (await listSenders(services().db, cloud.seed.project_id))[0].id,
  };
}, CLOUD_TIMEOUT_MS);
afterAll(async () => {
  reportFigures('fuzz', { seed: SEED, runsPerRoute: RUNS, cases, fiveHundreds: fiveHundreds.length });
  await cloud?.stop();
});

const sender = () => cloud.seed.sender_email;
const text = (max = 40) => fc.string({ unit: 'grapheme', maxLength: max });
const email = fc.oneof(fc.emailAddress(), fc.constantFrom('reader@example.com', 'Mixed.Case@Example.COM'));
const future = fc.integer({ min: 60, max: 12 * 24 * 3600 }).map((s) => new Date(Date.now() + s * 1000).toISOString());
// Keys JavaScript gives a meaning of their own come up in every run, not only when a seed draws them.
const dataKey = fc.oneof({ arbitrary: fc.string({ minLength: 1, maxLength: 12 }), weight: 19 }, { arbitrary: fc.constantFrom(...RESERVED_KEYS), weight: 1 });
const data = fc.dictionary(dataKey, fc.oneof(text(), fc.integer(), fc.boolean()), { maxKeys: 4 });

/** A body each route accepts (mostly), by route key; the others get arbitrary JSON. */
const VALID: Record<string, () => fc.Arbitrary<Record<string, unknown>>> = {
  'POST /v1/send-email': () => fc.record({ recipient_email: email, sender_email: fc.constant(sender()), subject: text(60), html_body: text(200).map((s) => `<p>${s}</p>`) }),
  'POST /v1/send-template-email': () => fc.record({ recipient_email: email, sender_email: fc.constant(sender()), templateId: fc.constant(ids.template), variables: data }),
  'POST /send-email': () => fc.record({ recipient: email, sender: fc.constant(sender()), subject: text(60), html: text(100), dry_run: fc.boolean() }),
  'POST /v1/send-batch': () =>
    fc.record({ sender: fc.constant(sender()), subject: text(40), html: text(100).map((s) => `<p>${s}</p>`), recipients: fc.array(email, { minLength: 1, maxLength: 5 }), dry_run: fc.boolean() }),
  'PATCH /v1/send-batch/{batchId}': () => fc.record({ scheduled_at: future }),
  'PATCH /v1/scheduled-sends/{id}': () => fc.record({ scheduled_at: future }),
  'POST /v1/suppressions': () => fc.record({ email }),
  'POST /v1/suppressions/remove': () => fc.record({ emails: fc.array(email, { maxLength: 3 }) }),
  'POST /v1/templates': () => fc.record({ name: text(30), subject: text(40), html: text(200) }),
  'PUT /v1/templates/{id}': () => fc.record({ name: text(30), subject: text(40), html: text(200) }),
  'POST /v1/leads': () => fc.record({ email, data }),
  'PUT /v1/leads/{id}': () => fc.record({ data }),
  'POST /v1/leads/{id}/tags': () => fc.record({ tags: fc.array(text(12), { maxLength: 3 }) }),
  'DELETE /v1/leads/{id}/tags': () => fc.record({ tags: fc.array(text(12), { maxLength: 3 }) }),
  'POST /v1/leads/{id}/attributes': () => data,
  'POST /v1/leads/{id}/segments': () => fc.record({ segment_ids: fc.constant([ids.segment]) }),
  'POST /v1/segments': () => fc.record({ name: text(30), description: text(30) }),
  'PATCH /v1/segments/{id}': () => fc.record({ name: text(30) }),
  'POST /v1/events': () => fc.record({ email, event: text(20), properties: data }),
  'POST /v1/events/bulk': () => fc.record({ events: fc.array(fc.record({ email, event: text(20) }), { minLength: 1, maxLength: 3 }) }),
  'POST /v1/leads/imports': () => fc.record({ format: fc.constant('csv'), content: fc.array(email, { maxLength: 3 }).map((es) => `email\n${es.join('\n')}\n`) }),
  'POST /v1/partner/projects': () => fc.record({ name: text(30), timezone: fc.constantFrom('Europe/Paris', 'UTC', 'Mars/Olympus'), country: fc.constantFrom('FR', 'US', 'ZZ') }),
  'PATCH /v1/partner/projects/{projectId}': () => fc.record({ name: text(30) }),
  'POST /domains/verify-email': () => fc.record({ email }),
  'POST /v1/campaigns': () =>
    fc.record(
      {
        name: text(30).map((s) => `Fuzz ${s}`),
        subject: text(40),
        templateId: fc.constant(ids.template),
        senderProfileId: fc.constant(ids.sender),
        recipientIds: fc.array(fc.oneof(fc.constant(ids.lead), fc.uuid()), { minLength: 1, maxLength: 4 }),
        scheduledFor: future,
        previewText: text(40),
        variableConfig: fc.record({ defaults: fc.dictionary(fc.string({ minLength: 1, maxLength: 8 }), text(10), { maxKeys: 2 }) }),
        confirmDuplicate: fc.boolean(),
      },
      { requiredKeys: ['name', 'templateId', 'senderProfileId', 'recipientIds'] },
    ),
};

/** Breaks a valid body: a field dropped, a field of any JSON type, junk added, or any JSON at all. */
function bodyFor(route: RouteDefinition): fc.Arbitrary<unknown> {
  const valid = VALID[routeKey(route)]?.() ?? fc.constant({});
  const broken = valid.chain((body) => {
    const keys = Object.keys(body);
    return fc.oneof(
      keys.length ? fc.constantFrom(...keys).map((k) => Object.fromEntries(Object.entries(body).filter(([key]) => key !== k))) : fc.constant(body),
      keys.length ? fc.tuple(fc.constantFrom(...keys), fc.jsonValue()).map(([k, v]) => ({ ...body, [k]: v })) : fc.constant(body),
      fc.tuple(fc.string({ maxLength: 20 }), fc.jsonValue()).map(([k, v]) => ({ ...body, [k]: v })),
    );
  });
  return fc.oneof({ arbitrary: valid, weight: 3 }, { arbitrary: broken, weight: 3 }, { arbitrary: fc.jsonValue(), weight: 1 });
}

/** A real value per path parameter name (the route's inner checks run), or anything. */
function paramFor(name: string): fc.Arbitrary<string> {
  const real: Record<string, string> = { projectId: ids.project, domain: DEMO_DOMAIN, email: 'fuzz-lead@example.com', segmentId: ids.segment, batchId: '00000000-0000-4000-8000-000000000000' };
  const good = real[name] ?? ids.template;
  const encode = (s: string) => {
    try {
      return encodeURIComponent(s);
    } catch {
      return '%E0%A4%A';
    }
  };
  return fc.oneof(fc.constant(encodeURIComponent(good)), fc.uuid().map(encode), fc.string({ unit: 'binary', maxLength: 300 }).map(encode), fc.constant(encodeURIComponent(ids.lead)));
}

const QUERY_NAMES = ['page', 'per_page', 'since', 'until', 'status', 'email', 'sender_domain', 'include', 'search', 'segment_id', 'event', 'campaign_id'];
const query = fc.array(
  fc.tuple(fc.constantFrom(...QUERY_NAMES), fc.oneof(fc.string({ maxLength: 30 }), fc.integer().map(String), fc.date({ noInvalidDate: true }).map((d) => d.toISOString()))),
  { maxLength: 3 },
).map((pairs) => new URLSearchParams(pairs).toString());

const keyFor = (route: RouteDefinition) => (route.auth === 'partner' ? fc.constant(cloud.seed.partner_key) : route.auth === 'project' ? fc.constantFrom(cloud.seed.live_key, cloud.seed.test_key) : fc.constant(undefined));

async function call(route: RouteDefinition, path: string, key: string | undefined, body: unknown): Promise<{ status: number; body: any }> {
  const headers: Record<string, string> = {};
  if (key) headers.authorization = `Bearer ${key}`;
  const hasBody = route.method !== 'GET' && body !== undefined;
  if (hasBody) headers['content-type'] = 'application/json';
  const res = await fetch(`${cloud.baseUrl}${path}`, { method: route.method, headers, body: hasBody ? JSON.stringify(body) : undefined });
  const raw = await res.text();
  cases++;
  let parsed: unknown = raw;
  try {
    parsed = JSON.parse(raw);
  } catch {
    // CSV, HTML pages and redirects are not JSON.
  }
  if (res.status >= 500) fiveHundreds.push(`${res.status} ${routeKey(route)} ${path.slice(0, 100)} ${JSON.stringify(body)?.slice(0, 200)}`);
  return { status: res.status, body: parsed };
}

/** fc.assert with this run's seed; a failure starts with the seed and the command that replays it. */
async function check<Ts>(property: fc.IAsyncProperty<Ts>, numRuns: number): Promise<void> {
  try {
    await fc.assert(property, { numRuns, seed: SEED, endOnFailure: true });
  } catch (error) {
    throw new Error(`Fuzz seed ${SEED} (replay: ${REPLAY})\n${(error as Error).message}`, { cause: error });
  }
}

/**
 * Reads back what an accepted create did: true when the effect is there. Run before the route
 * fuzzing, whose deletes may remove the template, sender or lead these creates name.
 */
const READ_BACK: Record<string, (body: any, answer: any) => Promise<boolean>> = {
  'POST /v1/templates': async (body, answer) => {
    const stored = (await cloud.api('GET', `/v1/templates/${answer.data.id}`)).body.data as { name?: string } | undefined;
    return stored?.name === body.name || stored?.name === String(body.name).trim();
  },
  'POST /v1/segments': async (_body, answer) => (await cloud.api('GET', `/v1/segments/${answer.segment.id}`)).status === 200,
  'POST /v1/leads': async (body) => (await cloud.api('GET', `/v1/leads/${encodeURIComponent(String(body.email).trim().toLowerCase())}/attributes`)).status === 200,
  'POST /v1/suppressions': async (body) => (await cloud.api('GET', `/v1/suppressions/${encodeURIComponent(String(body.email).trim().toLowerCase())}`)).status === 200,
  'POST /v1/send-email': async (_body, answer) => (await cloud.api('GET', `/v1/activity/${answer.email_id}`)).status === 200,
  'POST /v1/campaigns': async (body, answer) => {
    const stored = (await cloud.api('GET', `/v1/campaigns/${answer.campaign.id}`)).body.campaign as { id?: string; name?: string } | undefined;
    return stored?.id === answer.campaign.id && stored?.name === String(body.name).trim();
  },
  'POST /v1/events': async (body) => ((await cloud.api('GET', `/v1/events?email=${encodeURIComponent(String(body.email).trim().toLowerCase())}`)).body.data as unknown[]).length > 0,
};

describe('every accepted request can be read back', () => {
  test.each(Object.keys(READ_BACK))('%s', async (key) => {
    const route = routes.find((r) => routeKey(r) === key)!;
    let accepted = 0;
    await check(
      fc.asyncProperty(VALID[key](), async (body) => {
        const res = await call(route, route.path, cloud.seed.live_key, body);
        if (res.status >= 300) return res.status < 500;
        accepted++;
        return READ_BACK[key](body, res.body);
      }),
      RUNS * 3,
    );
    if (accepted === 0) throw new Error(`No ${key} case was accepted (seed ${SEED}; replay: ${REPLAY})`);
  });
});

// Writes and deletes last: they change what the reads see. Every route of the table is drawn.
const ORDER: Record<string, number> = { GET: 0, POST: 1, PUT: 1, PATCH: 1, DELETE: 2 };
const ordered = [...routes].sort((a, b) => ORDER[a.method] - ORDER[b.method]);

describe('fuzzing every route of the route table', () => {
  test.each(ordered.map((r) => [routeKey(r), r] as const))('%s never answers 500', async (_name, route) => {
    const params = [...route.path.matchAll(/\{(\w+)\}/g)].map((m) => m[1]);
    const pathArb = fc.tuple(...params.map(paramFor)).map((values) => route.path.replace(/\{(\w+)\}/g, () => values.shift() as string));
    await check(
      fc.asyncProperty(pathArb, query, keyFor(route), bodyFor(route), async (path, q, key, body) => {
        const res = await call(route, q ? `${path}?${q}` : path, key, body);
        return res.status < 500;
      }),
      RUNS,
    );
  });
});

test('no fuzz case answered 500', () => {
  if (fiveHundreds.length > 0) throw new Error(`${fiveHundreds.length} fuzz cases answered 5xx (seed ${SEED}; replay: ${REPLAY}):\n${fiveHundreds.join('\n')}`);
});
