import { randomBytes } from 'node:crypto';
import { services } from '../../composition/services';
import { createProject, rotateProjectKey } from '../../shared/platform/projects/project-service';
import { putDomain } from '../../shared/identities/domains/domain-repository';
import { CLOUD_TIMEOUT_MS, sendBody, startTestCloud, type TestCloud } from './support/test-cloud';

const MISSING = 'Missing or invalid API key. Use: Authorization: Bearer sk_proj_...';
const BAD_PREFIX = 'Invalid API key prefix. Expected sk_proj_*, sk_live_* or sk_test_*.';
const UNKNOWN = 'Invalid API key';

const secretOf = (key: string) => key.replace(/^sk_[a-z]+_/, '');
const randomSecret = () => randomBytes(24).toString('hex');

let cloud: TestCloud;
beforeAll(async () => {
  cloud = await startTestCloud();
}, CLOUD_TIMEOUT_MS);
afterAll(() => cloud?.stop());

/** Creates another project with a verified demo-like domain, returning its keys. */
async function otherProject(name: string) {
  const { db, clock } = services();
  const created = await createProject(db, clock, { organizationId: cloud.seed.organization_id, name });
  const now = new Date().toISOString();
  await putDomain(db, {
    project_id: created.project.id,
    domain: 'other.example.org',
    identity_id: 'id',
    verification_status: 'verified',
    can_send: true,
    created_at: now,
    updated_at: now,
  });
  return created;
}

describe('Authorization header (part 5, rules 3 and 4)', () => {
  const cases: [string, Record<string, string>, string][] = [
    ['no Authorization header', {}, MISSING],
    ['a Basic scheme', { authorization: 'Basic dXNlcjpwYXNz' }, MISSING],
    ['Bearer with nothing after it', { authorization: 'Bearer ' }, MISSING],
    ['a token without the sk_ shape', { authorization: 'Bearer not-a-key' }, MISSING],
    ['a known prefix with an empty secret', { authorization: 'Bearer sk_live_' }, MISSING],
    ['an unknown prefix such as sk_dev_', { authorization: `Bearer sk_dev_${randomSecret()}` }, BAD_PREFIX],
    ['a valid prefix matching no project', { authorization: `Bearer sk_live_${randomSecret()}` }, UNKNOWN],
    ['a test prefix matching no project', { authorization: `Bearer sk_test_${randomSecret()}` }, UNKNOWN],
  ];

  test.each(cases)('%s gives 401 with the exact message', async (_name, headers, message) => {
    const res = await cloud.api('POST', '/v1/send-email', { key: null, headers, body: sendBody(cloud) });
    expect(res.status).toBe(401);
    expect(res.body).toEqual({ error: message });
  });

  test('a partner key is refused on project paths as a wrong prefix', async () => {
    const res = await cloud.api('POST', '/v1/send-email', { key: cloud.seed.partner_key, body: sendBody(cloud) });
    expect(res.status).toBe(401);
    expect(res.body).toEqual({ error: BAD_PREFIX });
  });

  test('the key is checked before the body: no key and broken JSON is still a 401', async () => {
    const res = await cloud.api('POST', '/v1/send-email', { key: null, rawBody: '{nope', headers: { 'content-type': 'application/json' } });
    expect(res.status).toBe(401);
  });

  test('every API endpoint takes the same rules (activity read without a key)', async () => {
    const res = await cloud.api('GET', '/v1/activity/00000000-0000-4000-8000-000000000000', { key: null });
    expect(res.status).toBe(401);
    expect(res.body).toEqual({ error: MISSING });
  });
});

describe('Key modes (part 5, rules 1 and 2)', () => {
  test('sk_live_ and sk_proj_ are the same live key', async () => {
    const proj = `sk_proj_${secretOf(cloud.seed.live_key)}`;
    const res = await cloud.api('POST', '/v1/send-email', { key: proj, body: sendBody(cloud) });
    expect(res.status).toBe(200);
    const activity = await cloud.api('GET', `/v1/activity/${res.body.email_id}`, { key: cloud.seed.live_key });
    expect((activity.body.data as Record<string, unknown>).is_test).toBe(false);
  });

  test('a test key sends in test mode: the activity is flagged is_test', async () => {
    const res = await cloud.api('POST', '/v1/send-email', { key: cloud.seed.test_key, body: sendBody(cloud) });
    expect(res.status).toBe(200);
    const activity = await cloud.api('GET', `/v1/activity/${res.body.email_id}`, { key: cloud.seed.test_key });
    expect((activity.body.data as Record<string, unknown>).is_test).toBe(true);
  });

  test('the mode comes only from the prefix: the live secret under sk_test_ is no key at all', async () => {
    const res = await cloud.api('POST', '/v1/send-email', { key: `sk_test_${secretOf(cloud.seed.live_key)}`, body: sendBody(cloud) });
    expect(res.status).toBe(401);
    expect(res.body).toEqual({ error: UNKNOWN });
  });

  test('the test secret under sk_live_ is refused too', async () => {
    const res = await cloud.api('POST', '/v1/send-email', { key: `sk_live_${secretOf(cloud.seed.test_key)}`, body: sendBody(cloud) });
    expect(res.status).toBe(401);
    expect(res.body).toEqual({ error: UNKNOWN });
  });

  test('a mode header or parameter changes nothing', async () => {
    const res = await cloud.api('POST', '/v1/send-email?mode=test', {
      key: cloud.seed.live_key,
      headers: { 'x-mode': 'test' },
      body: { ...sendBody(cloud), mode: 'test' },
    });
    const activity = await cloud.api('GET', `/v1/activity/${res.body.email_id}`);
    expect((activity.body.data as Record<string, unknown>).is_test).toBe(false);
  });
});

describe('Project inferred from the key (part 5, rule 2)', () => {
  test("another project's activity id is a 404, never a 403", async () => {
    const other = await otherProject('Other');
    const sent = await cloud.api('POST', '/v1/send-email', {
      key: other.liveKey,
      body: sendBody(cloud, { sender_email: 'news@other.example.org' }),
    });
    expect(sent.status).toBe(200);
    expect(sent.body.project_id).toBe(other.project.id);
    expect((await cloud.api('GET', `/v1/activity/${sent.body.email_id}`, { key: other.liveKey })).status).toBe(200);
    const foreign = await cloud.api('GET', `/v1/activity/${sent.body.email_id}`, { key: cloud.seed.live_key });
    expect(foreign.status).toBe(404);
  });
});

describe('Key regeneration (part 5, rule 5)', () => {
  test('regenerating the live key invalidates the old one at once and leaves the test key alone', async () => {
    const project = await otherProject('Rotating');
    const body = sendBody(cloud, { sender_email: 'news@other.example.org' });
    expect((await cloud.api('POST', '/v1/send-email', { key: project.liveKey, body })).status).toBe(200);

    const newLive = await rotateProjectKey(services().db, project.project.id, 'live');
    const old = await cloud.api('POST', '/v1/send-email', { key: project.liveKey, body });
    expect(old.status).toBe(401);
    expect(old.body).toEqual({ error: UNKNOWN });
    expect((await cloud.api('POST', '/v1/send-email', { key: newLive, body })).status).toBe(200);
    expect((await cloud.api('POST', '/v1/send-email', { key: project.testKey, body })).status).toBe(200);

    const newTest = await rotateProjectKey(services().db, project.project.id, 'test');
    expect((await cloud.api('POST', '/v1/send-email', { key: project.testKey, body })).status).toBe(401);
    expect((await cloud.api('POST', '/v1/send-email', { key: newTest, body })).status).toBe(200);
    expect((await cloud.api('POST', '/v1/send-email', { key: newLive, body })).status).toBe(200);
  });

  test('a rotated key also stops working under its sk_proj_ spelling', async () => {
    const project = await otherProject('Rotating proj');
    await rotateProjectKey(services().db, project.project.id, 'live');
    const res = await cloud.api('POST', '/v1/send-email', {
      key: `sk_proj_${secretOf(project.liveKey)}`,
      body: sendBody(cloud, { sender_email: 'news@other.example.org' }),
    });
    expect(res.status).toBe(401);
  });
});
