import { randomUUID } from 'node:crypto';
import { services } from '../../composition/services';
import { listSenders } from '../../shared/identities/domains/sender-repository';
import { CLOUD_TIMEOUT_MS, startTestCloud, type TestCloud } from './support/test-cloud';

/**
 * Numbers beyond 2^53 in what a client stores (found by the route fuzzer: lead data holding
 * -4.34448899287938e65 answered 500). Within DynamoDB's range they are stored and read back as
 * sent; beyond it, every stored field answers the 400 lead data already gave.
 */

let cloud: TestCloud;

beforeAll(async () => {
  cloud = await startTestCloud({ workers: false });
}, CLOUD_TIMEOUT_MS);
afterAll(() => cloud?.stop());

const email = () => `numbers-${randomUUID().slice(0, 8)}@example.com`;
const BIG = [2 ** 60, -4.34448899287938e65, 9.8e125];

describe('numbers beyond 2^53 within DynamoDB range', () => {
  test.each(BIG)('%d in lead data, attributes and a lead created by an event: stored and read back as sent', async (n) => {
    const to = email();
    expect((await cloud.api('POST', '/v1/leads', { body: { email: to, data: { score: n, nested: { list: [n] } } } })).status).toBe(201);
    expect((await cloud.api('GET', `/v1/leads/${encodeURIComponent(to)}/attributes`)).body).toEqual({ success: true, data: { score: n, nested: { list: [n] } } });
    const merged = await cloud.api('POST', `/v1/leads/${encodeURIComponent(to)}/attributes`, { body: { other: n } });
    expect(merged.body.data).toMatchObject({ score: n, other: n });

    const buyer = email();
    expect((await cloud.api('POST', '/v1/events', { body: { email: buyer, event: 'purchase', properties: { total: n } } })).status).toBe(201);
    const events = await cloud.api('GET', `/v1/events?email=${encodeURIComponent(buyer)}`);
    expect(events.status).toBe(200);
    expect(JSON.stringify(events.body)).toContain(JSON.stringify(n));
  });

  test('a segment filter value: stored and read back', async () => {
    const res = await cloud.api('POST', '/v1/segments', { body: { name: `n-${randomUUID()}`, type: 'dynamic', filter: { match: 'all', conditions: [{ attribute: 'score', op: 'in', value: [2 ** 60] }] } } });
    expect(res.status).toBe(201);
    const read = await cloud.api('GET', `/v1/segments/${(res.body.segment as { id: string }).id}`);
    expect((read.body.segment as { filter: unknown }).filter).toMatchObject({ conditions: [{ value: [2 ** 60] }] });
  });
});

describe('numbers DynamoDB cannot hold: a 400 naming the field', () => {
  test.each([1e300, 1e-200])('%d in a segment filter value', async (n) => {
    const res = await cloud.api('POST', '/v1/segments', { body: { name: `n-${randomUUID()}`, type: 'dynamic', filter: { match: 'all', conditions: [{ attribute: 'score', op: 'gt', value: n }] } } });
    expect({ status: res.status, error: res.body.error }).toEqual({ status: 400, error: 'filter.conditions[0].value holds a number out of range' });
  });

  test.each([1e300, 1e-200])('%d in a campaign variableConfig default', async (n) => {
    const senderProfileId = (await listSenders(services().db, cloud.seed.project_id))[0].id;
    const templateId = ((await cloud.api('POST', '/v1/templates', { body: { name: `n-${randomUUID()}`, subject: 'S', html: '<p>{{a}}</p>' } })).body.data as { id: string }).id;
    const lead = ((await cloud.api('POST', '/v1/leads', { body: { email: email() } })).body.leads as { id: string }[])[0].id;
    const res = await cloud.api('POST', '/v1/campaigns', {
      body: { name: `n-${randomUUID()}`, subject: `S ${randomUUID()}`, templateId, senderProfileId, recipientIds: [lead], scheduledFor: new Date(Date.now() + 86_400_000).toISOString(), variableConfig: { defaults: { a: n } } },
    });
    expect({ status: res.status, error: res.body.error }).toEqual({ status: 400, error: 'variableConfig.defaults.a holds a number out of range' });
  });
});
