import { DEMO_DOMAIN } from '../../local/seed';
import { routeKey } from '../../shared/platform/core/routes';
import * as z from '../../shared/platform/core/zod';
import type { TableRoute as RouteDefinition } from '../../functions/route-table';
import { routeTable as routes } from '../../functions/route-table';
import { CLOUD_TIMEOUT_MS, startTestCloud, type TestCloud } from './support/test-cloud';

/**
 * Issue 12, finding 7: no input may answer 500. Walks the route table and sends every route
 * malformed path parameters, over-long keys, wrong JSON types and odd query strings, with the key
 * each route needs, and collects every answer of 500 or more.
 */

let cloud: TestCloud;
/** A partner project of the seeded organization, so partner routes reach their inner checks. */
let partnerProjectId: string;

beforeAll(async () => {
  cloud = await startTestCloud({ workers: false });
  const created = await cloud.api('POST', '/v1/partner/projects', { key: cloud.seed.partner_key, body: { name: 'Sweep client' } });
  partnerProjectId = created.body.project_id as string;
}, CLOUD_TIMEOUT_MS);
afterAll(() => cloud?.stop());

const LONG = 'a'.repeat(2048);

/** Raw (already encoded) path segments that must never crash a route. */
const BAD_SEGMENTS = [
  '%E0%A4%A', // bad percent-encoding
  '%25E0%A4%A', // decodes to bad percent-encoding: catches a second decode
  '%', // a lone percent sign
  '%00', // NUL
  'a%0D%0Ab', // CRLF
  encodeURIComponent('é😀') + '.example.com', // unicode
  '%F0%9F', // a cut-off UTF-8 sequence
  LONG, // 2 KB: beyond DynamoDB's key size
  `${LONG}@example.com`, // an over-long address
  `a@${LONG}.com`, // an over-long domain in an address
  `${'b'.repeat(250)}.example.com`, // a domain name over 253 characters
  '..',
  'null',
];

/** A value that reaches a route's inner checks, per path parameter name. */
function goodParam(name: string): string {
  switch (name) {
    case 'projectId':
      return partnerProjectId;
    case 'domain':
      return DEMO_DOMAIN;
    case 'email':
      return encodeURIComponent('someone@example.com');
    default:
      return '00000000-0000-4000-8000-000000000000';
  }
}

/** Values of the wrong type or shape for any JSON field. */
const BAD_VALUES: unknown[] = [123, -1, 1e308, true, null, [], {}, [1, 'a', null], { nested: { deep: [] } }, '', LONG, 'a\u0000b', 'a\r\nBcc: x@example.com', '😀', `${LONG}@example.com`];

/** Every body field the API reads somewhere; a route ignores the ones it does not know. */
const FIELDS = [
  'recipient_email', 'recipient', 'sender_email', 'sender', 'senderName', 'sender_name', 'subject', 'html_body', 'html', 'text',
  'text_body', 'cc', 'bcc', 'reply_to', 'attachments', 'custom_headers', 'headers', 'in_reply_to', 'references', 'thread_id',
  'email_type', 'campaign_id', 'automation_run_id', 'environment', 'dry_run', 'scheduled_at', 'timezone', 'default_timezone',
  'templateId', 'template_id', 'template_internal_id', 'data', 'variables', 'name', 'email', 'emails', 'reason', 'domain',
  'subdomain', 'country', 'external_key', 'allow_unauthenticated', 'description', 'monthly_quota', 'webhook_url',
  'webhook_url_dev', 'inbound_webhook_url', 'inbound_webhook_url_dev', 'inbound_webhook_environments',
  'templateInternalId', 'senderProfileId', 'recipientIds', 'selectAllRecipients', 'recipientCount', 'recipientFilter', 'previewText',
  'scheduledFor', 'scheduleType', 'delayAmount', 'delayUnit', 'batchMode', 'batchSize', 'batchIntervalHours', 'sendOverHours',
  'variableConfig', 'confirmDuplicate', 'segmentId', 'followUp',
];

/** A body each write route accepts, so that one wrong field at a time gets past the others. */
const VALID_BODIES: Record<string, Record<string, unknown>> = {
  'POST /v1/send-email': { recipient_email: 'reader@example.com', sender_email: `hello@${DEMO_DOMAIN}`, subject: 'Hi', html_body: '<p>Hi</p>' },
  'POST /v1/send-template-email': { recipient_email: 'reader@example.com', sender_email: `hello@${DEMO_DOMAIN}`, subject: 'Hi', html_body: '<p>Hi</p>' },
  'POST /send-email': { recipient: 'reader@example.com', sender: `hello@${DEMO_DOMAIN}`, subject: 'Hi', html: '<p>Hi</p>', dry_run: true },
  'PATCH /v1/scheduled-sends/{id}': { scheduled_at: '2099-01-01T00:00:00Z' },
  'POST /v1/suppressions': { email: 'someone@example.com' },
  'POST /v1/suppressions/remove': { emails: ['someone@example.com'] },
  'POST /v1/templates': { name: 'Sweep', subject: 'Hi', html: '<p>Hi</p>' },
  'PUT /v1/templates/{id}': { name: 'Sweep', subject: 'Hi', html: '<p>Hi</p>' },
  'POST /domains/register': { domain: 'sweep.example.com', sender_name: 'Sweep', sender_email: 'hello@sweep.example.com' },
  'POST /domains/reply': { domain: DEMO_DOMAIN },
  'POST /domains/tracking': { domain: DEMO_DOMAIN },
  'POST /domains/verify-email': { email: 'someone@example.com' },
  'POST /v1/campaigns': {
    name: 'Sweep',
    templateId: '00000000-0000-4000-8000-000000000000',
    senderProfileId: '00000000-0000-4000-8000-000000000000',
    recipientIds: ['00000000-0000-4000-8000-000000000000'],
    subject: 'Hi',
    previewText: 'Hi',
    scheduledFor: '2099-01-01T00:00:00Z',
    scheduleType: 'scheduled',
    batchIntervalHours: 24,
    variableConfig: { defaults: { a: 'b' }, mappings: { a: 'name' } },
    confirmDuplicate: true,
  },
  'POST /v1/partner/projects': { name: 'Sweep', timezone: 'Europe/Paris', country: 'FR' },
  'PATCH /v1/partner/projects/{projectId}': { name: 'Sweep', timezone: 'Europe/Paris', country: 'FR' },
  'POST /v1/partner/projects/{projectId}/domains': { domain: 'sweep.example.com', sender: { name: 'Sweep', email: 'hello@sweep.example.com' } },
  'POST /v1/partner/projects/{projectId}/senders': { name: 'Sweep', email: `hello@${DEMO_DOMAIN}`, allow_unauthenticated: true },
};

/** Query strings for read routes: wrong types, reversed ranges, long and broken values. */
const QUERY_NAMES = ['page', 'per_page', 'since', 'until', 'status', 'email', 'sender_domain', 'reason', 'include', 'force', 'search', 'campaign_id', 'automation_run_id'];
const BAD_QUERY_VALUES = ['abc', '-1', '0', '1e309', '99999999999999999999', '', LONG, '%E0%A4%A', '%00', '2030-13-45', 'now'];
const QUERIES = [
  ...QUERY_NAMES.flatMap((name) => BAD_QUERY_VALUES.map((v) => `${name}=${v}`)),
  `since=2030-01-01T00:00:00Z&until=2020-01-01T00:00:00Z`,
  `since=2030-01-01&until=2020-01-01`,
  QUERY_NAMES.map((n) => `${n}=1&${n}=2`).join('&'),
  `${LONG}=1`,
];

/** The query parameters a route's schema names (its module's `query`). */
function declaredQueryNames(route: RouteDefinition): Set<string> {
  if (!route.query) return new Set();
  const schema = z.toJSONSchema(route.query, { io: 'input', unrepresentable: 'any' }) as { properties?: Record<string, unknown> };
  return new Set(Object.keys(schema.properties ?? {}));
}

/**
 * The bad query strings a route gets with its `keyIndex`-th key: with its first key, every bad
 * value of every parameter its schema names and the combined ones; otherwise (and for names it
 * does not read, which it must only ignore) a rotating third. Every bad value still reaches every
 * route through its own parameters, and every ignored name reaches every route across its keys.
 */
function queriesFor(route: RouteDefinition, keyIndex: number): string[] {
  const declared = declaredQueryNames(route);
  return QUERIES.filter((q, i) => {
    const name = q.split('=')[0];
    const own = declared.has(name) || q.includes('&');
    return FULL || (own && keyIndex === 0) || (i + keyIndex) % 3 === 0;
  });
}

interface Probe {
  route: RouteDefinition;
  path: string;
  body?: string;
  key?: string;
}

/** The key a route needs (live, test or partner); public routes get none. */
function keysFor(route: RouteDefinition): (string | undefined)[] {
  if (route.auth === 'partner') return [cloud.seed.partner_key];
  if (route.auth === 'project') return [cloud.seed.live_key, cloud.seed.test_key];
  return [undefined];
}

function pathWith(route: RouteDefinition, overrides: Record<string, string> = {}): string {
  return route.path.replace(/\{(\w+)\}/g, (_m, name: string) => overrides[name] ?? goodParam(name));
}

function probesFor(route: RouteDefinition): Probe[] {
  const probes: Probe[] = [];
  const params = [...route.path.matchAll(/\{(\w+)\}/g)].map((m) => m[1]);
  const hasBody = route.method !== 'GET' && route.method !== 'DELETE';
  const valid = VALID_BODIES[routeKey(route)] ?? {};
  for (const key of keysFor(route)) {
    for (const param of params) {
      // Every bad segment with the route's first key; a rotating third of them with its other keys.
      const segments = key === keysFor(route)[0] ? BAD_SEGMENTS : sampled(BAD_SEGMENTS, params.indexOf(param));
      for (const bad of segments) probes.push({ route, key, path: pathWith(route, { [param]: bad }), body: hasBody ? JSON.stringify(valid) : undefined });
    }
    if (route.method === 'GET') for (const q of queriesFor(route, keysFor(route).indexOf(key))) probes.push({ route, key, path: `${pathWith(route)}?${q}` });
    if (!hasBody) continue;
    const path = pathWith(route);
    const deep = `${'['.repeat(50_000)}${']'.repeat(50_000)}`;
    for (const raw of ['[]', 'null', '1', '"x"', 'true', '{"a":', '{}', JSON.stringify({ [LONG]: 1 }), JSON.stringify({ ['a\u0000b']: 1 }), deep, `{"data":${deep}}`]) probes.push({ route, key, path, body: raw });
    for (const bad of BAD_VALUES) probes.push({ route, key, path, body: JSON.stringify(Object.fromEntries(FIELDS.map((f) => [f, bad]))) });
    // One wrong field at a time on top of a valid body; the live key alone keeps the count down.
    if (key !== keysFor(route)[0]) continue;
    [...new Set([...Object.keys(valid), 'timezone', 'country', 'domain', 'email', 'emails', 'name'])].forEach((field, f) => {
      for (const bad of sampled(BAD_VALUES, f)) probes.push({ route, key, path, body: JSON.stringify({ ...valid, [field]: bad }) });
    });
  }
  return probes;
}

/**
 * `npm test` sends each field a rotating third of the bad values (every value still reaches every
 * route through the all-fields bodies, and every field across its neighbours); `SWEEP_FULL=1` sends
 * them all (about three times the probes).
 */
const FULL = process.env.SWEEP_FULL === '1';
const sampled = <T>(values: readonly T[], seed: number): readonly T[] => (FULL ? values : values.filter((_, i) => (i + seed) % 3 === 0));

/** Runs `work` over `items` with at most `limit` at a time. */
async function pool<T>(items: readonly T[], limit: number, work: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  await Promise.all(Array.from({ length: limit }, async () => {
    while (next < items.length) await work(items[next++]);
  }));
}

// The send and delete routes go last: they change the state the others read.
const ORDER: Record<string, number> = { DELETE: 2, POST: 1 };
const ordered = [...routes].sort((a, b) => (ORDER[a.method] ?? 0) - (ORDER[b.method] ?? 0));

describe('input sweep over the route table', () => {
  test('no malformed path parameter, query string or body answers 500 on any route', async () => {
    const failures: string[] = [];
    let sent = 0;
    for (const route of ordered) {
      await pool(probesFor(route), 6, async (probe) => {
        const headers: Record<string, string> = {};
        if (probe.key) headers.authorization = `Bearer ${probe.key}`;
        if (probe.body !== undefined) headers['content-type'] = 'application/json';
        const res = await fetch(`${cloud.baseUrl}${probe.path}`, { method: route.method, headers, body: probe.body });
        const text = await res.text();
        sent++;
        if (res.status >= 500) failures.push(`${res.status} ${routeKey(route)}: ${probe.path.slice(0, 120)} ${String(probe.body ?? '').slice(0, 160)} -> ${text.slice(0, 160)}`);
      });
    }
    expect(sent).toBeGreaterThan(1000);
    expect(failures).toEqual([]);
  }, 900_000);
});

describe('the inputs of issue 12 that answered 500 answer 400', () => {
  const KB = 'a'.repeat(1100);
  test.each([
    ['GET', () => `/v1/suppressions/${KB}%40example.com`],
    ['DELETE', () => `/v1/suppressions/${KB}%40example.com`],
    ['GET', () => `/domains/${KB}.com/status`],
    ['POST', () => `/domains/${KB}.com/verify`],
    ['GET', () => `/domains/${KB}.com/dns-records`],
    ['GET', () => `/v1/activity?since=2030-01-01T00:00:00Z&until=2020-01-01T00:00:00Z`],
  ])('%s %s with the live key', async (method, path) => {
    expect((await cloud.api(method, path())).status).toBe(400);
  });

  test('a partner domain path parameter over 1 KB', async () => {
    const res = await cloud.api('GET', `/v1/partner/projects/${partnerProjectId}/domains/${KB}.com`, { key: cloud.seed.partner_key });
    expect(res.status).toBe(400);
    expect(res.body.code).toBe('INVALID_INPUT');
  });

  test.each(['/domains/reply', '/domains/tracking'])('a body domain over 1 KB on %s', async (path) => {
    expect((await cloud.api('POST', path, { body: { domain: `${KB}.com` } })).status).toBe(400);
  });

  test.each([
    [{ timezone: '' }, 'INVALID_TIMEZONE'],
    [{ country: '' }, 'INVALID_COUNTRY'],
  ])('a partner PATCH with %j', async (body, code) => {
    const res = await cloud.api('PATCH', `/v1/partner/projects/${partnerProjectId}`, { key: cloud.seed.partner_key, body });
    expect(res.status).toBe(400);
    expect(res.body.code).toBe(code);
  });

  test('concurrent requests racing for one sender: one wins, the others get 409 or the same sender, never 500', async () => {
    const answers = await Promise.all([1, 2, 3, 4, 5, 6].map(() => cloud.api('POST', '/domains/verify-email', { body: { email: 'race@example.com' } })));
    expect(answers.map((a) => a.status).filter((s) => s >= 500)).toEqual([]);
    expect(answers.some((a) => a.status === 201)).toBe(true);
  });
});
