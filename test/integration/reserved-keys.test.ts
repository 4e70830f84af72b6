import { randomUUID } from 'node:crypto';
import { services } from '../../composition/services';
import { listSenders } from '../../shared/identities/domains/sender-repository';
import { routeKey } from '../../shared/platform/core/routes';
import { routeTable as routes } from '../../functions/route-table';
import { CLOUD_TIMEOUT_MS, startTestCloud, type TestCloud } from './support/test-cloud';

/**
 * `__proto__`, `constructor` and `prototype` as keys of any object a client sends: refused with a
 * 400 that names the key and where it was, on every route, before the route runs. Bodies are sent
 * as raw JSON text: in a JavaScript object literal `__proto__` would set the prototype, not a key.
 */

let cloud: TestCloud;
let senderProfileId: string;
let templateId: string;

beforeAll(async () => {
  cloud = await startTestCloud({ workers: false });
  senderProfileId = (await listSenders(services().db, cloud.seed.project_id))[0].id;
  templateId = ((await cloud.api('POST', '/v1/templates', { body: { name: `reserved-${randomUUID()}`, html: '<p>Hi {{a}}</p>' } })).body.data as { id: string }).id;
}, CLOUD_TIMEOUT_MS);
afterAll(() => cloud?.stop());

const post = (method: string, path: string, json: string, key = cloud.seed.live_key) => cloud.api(method, path, { key, rawBody: json, headers: { 'content-type': 'application/json' } });
const refusal = (key: string, at: string) => `Key "${key}" ${at === key ? '' : `(at ${at}) `}is not allowed: __proto__, constructor and prototype are reserved`;

async function expectRefused(method: string, path: string, json: string, key: string, at: string) {
  const res = await post(method, path, json);
  expect({ status: res.status, error: res.body.error }).toEqual({ status: 400, error: refusal(key, at) });
}

describe('the routes of the brief', () => {
  const email = () => `reserved-${randomUUID().slice(0, 8)}@example.com`;

  test.each([
    ['constructor', '{"constructor":1}'],
    ['__proto__', '{"__proto__":1}'],
    ['prototype', '{"nested":{"prototype":{"x":1}}}'],
  ])('POST /v1/leads with data %s: 400, and no lead is written', async (key, data) => {
    const to = email();
    const res = await post('POST', '/v1/leads', `{"email":"${to}","data":${data}}`);
    expect(res.status).toBe(400);
    expect(res.body.error).toBe(refusal(key, key === 'prototype' ? 'data.nested.prototype' : `data.${key}`));
    expect((await cloud.api('GET', `/v1/leads/${encodeURIComponent(to)}/attributes`)).status).toBe(404);
  });

  test('POST /v1/leads in bulk: the item is named by its index', async () => {
    await expectRefused('POST', '/v1/leads', `{"leads":[{"email":"${email()}"},{"email":"${email()}","data":{"constructor":1}}]}`, 'constructor', 'leads[1].data.constructor');
  });

  test('PUT /v1/leads/:id and POST /v1/leads/:email/attributes', async () => {
    const to = email();
    expect((await cloud.api('POST', '/v1/leads', { body: { email: to, data: { plan: 'free' } } })).status).toBe(201);
    await expectRefused('POST', `/v1/leads/${encodeURIComponent(to)}/attributes`, '{"constructor":5}', 'constructor', 'constructor');
    await expectRefused('POST', `/v1/leads/${encodeURIComponent(to)}/attributes`, '{"__proto__":{"plan":"pro"}}', '__proto__', '__proto__');
    await expectRefused('PUT', `/v1/leads/${encodeURIComponent(to)}`, '{"data":{"__proto__":{"plan":"pro"}}}', '__proto__', 'data.__proto__');
    expect((await cloud.api('GET', `/v1/leads/${encodeURIComponent(to)}/attributes`)).body).toMatchObject({ data: { plan: 'free' } });
  });

  test('POST /v1/events and /v1/events/bulk: properties', async () => {
    await expectRefused('POST', '/v1/events', `{"email":"${email()}","event":"purchase","properties":{"constructor":1}}`, 'constructor', 'properties.constructor');
    await expectRefused('POST', '/v1/events/bulk', `{"events":[{"email":"${email()}","event":"purchase","properties":{"__proto__":{"a":1}}}]}`, '__proto__', 'events[0].properties.__proto__');
  });

  test('POST /v1/send-template-email: variables {"__proto__": {"a": 1}} is a 400, not TEMPLATE_EMPTY', async () => {
    const json = `{"recipient_email":"${email()}","sender_email":"${cloud.seed.sender_email}","template_id":"${templateId}","variables":{"__proto__":{"a":1}}}`;
    await expectRefused('POST', '/v1/send-template-email', json, '__proto__', 'variables.__proto__');
    // The same value under a plain key renders as data.
    const ok = await post('POST', '/v1/send-template-email', json.replace('"__proto__":{"a":1}', '"a":"there"'));
    expect(ok.status).toBe(200);
  });

  test('POST /send-email: data and custom headers', async () => {
    const base = `"recipient":"${email()}","sender":"${cloud.seed.sender_email}","subject":"Hi","html":"<p>{{a}}</p>"`;
    await expectRefused('POST', '/send-email', `{${base},"data":{"constructor":{"a":1}}}`, 'constructor', 'data.constructor');
    await expectRefused('POST', '/send-email', `{${base},"custom_headers":{"prototype":"x"}}`, 'prototype', 'custom_headers.prototype');
  });

  test('POST /v1/send-batch: request data, recipient data and metadata, custom headers', async () => {
    const base = `"sender":"${cloud.seed.sender_email}","subject":"Hi","html":"<p>Hi</p>"`;
    await expectRefused('POST', '/v1/send-batch', `{${base},"data":{"__proto__":{"x":1}},"recipients":["${email()}"]}`, '__proto__', 'data.__proto__');
    await expectRefused('POST', '/v1/send-batch', `{${base},"recipients":["${email()}",{"email":"${email()}","data":{"constructor":1}}]}`, 'constructor', 'recipients[1].data.constructor');
    await expectRefused('POST', '/v1/send-batch', `{${base},"recipients":[{"email":"${email()}","metadata":{"__proto__":{"x":1}}}]}`, '__proto__', 'recipients[0].metadata.__proto__');
    await expectRefused('POST', '/v1/send-batch', `{${base},"custom_headers":{"constructor":"x"},"recipients":["${email()}"]}`, 'constructor', 'custom_headers.constructor');
  });

  test('POST /v1/campaigns: variableConfig defaults and mappings', async () => {
    const lead = ((await cloud.api('POST', '/v1/leads', { body: { email: email() } })).body.leads as { id: string }[])[0].id;
    const base = `"name":"reserved-${randomUUID()}","templateId":"${templateId}","senderProfileId":"${senderProfileId}","recipientIds":["${lead}"],"scheduledFor":"${new Date(Date.now() + 86_400_000).toISOString()}"`;
    await expectRefused('POST', '/v1/campaigns', `{${base},"variableConfig":{"defaults":{"constructor":"x"}}}`, 'constructor', 'variableConfig.defaults.constructor');
    await expectRefused('POST', '/v1/campaigns', `{${base},"variableConfig":{"mappings":{"__proto__":"plan"}}}`, '__proto__', 'variableConfig.mappings.__proto__');
  });

  test('POST /v1/segments and PATCH: filters', async () => {
    await expectRefused('POST', '/v1/segments', '{"name":"s","type":"dynamic","filter":{"match":"all","conditions":[{"attribute":"plan","op":"exists","__proto__":{"op":"eq"}}]}}', '__proto__', 'filter.conditions[0].__proto__');
    const segment = ((await cloud.api('POST', '/v1/segments', { body: { name: `s-${randomUUID()}` } })).body.segment as { id: string }).id;
    await expectRefused('PATCH', `/v1/segments/${segment}`, '{"name":"s","constructor":{}}', 'constructor', 'constructor');
  });
});

describe('every route of the route table that takes a JSON body', () => {
  const withBody = routes.filter((r) => r.method !== 'GET' && r.auth !== 'public');
  test.each(withBody.map((r) => [routeKey(r), r] as const))('%s refuses the key before the route runs', async (_name, route) => {
    const path = route.path.replace(/\{(\w+)\}/g, (_, name: string) => (name === 'email' ? 'nobody%40example.com' : name === 'domain' ? 'example.com' : '00000000-0000-4000-8000-000000000000'));
    const key = route.auth === 'partner' ? cloud.seed.partner_key : cloud.seed.live_key;
    const res = await post(route.method, path, '{"a":{"b":[{"constructor":1}]}}', key);
    expect({ status: res.status, error: res.body.error }).toEqual({ status: 400, error: refusal('constructor', 'a.b[0].constructor') });
  });
});
