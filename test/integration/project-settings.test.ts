import { services } from '../../composition/services';
import { getProject } from '../../shared/platform/projects/project-repository';
import { createProject } from '../../shared/platform/projects/project-service';
import { TEST_KEY_CANNOT_CHANGE_SETTINGS } from '../../shared/tenancy/project-settings/project-settings';
import { CLOUD_TIMEOUT_MS, startTestCloud, type TestCloud } from './support/test-cloud';

let cloud: TestCloud;

beforeAll(async () => {
  cloud = await startTestCloud({ workers: false });
}, CLOUD_TIMEOUT_MS);
afterAll(() => cloud?.stop());

/** The fields part 2 shows of a project, and nothing else. */
const PROJECT_FIELDS = [
  'id', 'name', 'slug', 'timezone', 'default_timezone', 'country', 'webhook_url', 'webhook_url_dev', 'inbound_webhook_url', 'inbound_webhook_url_dev',
  'inbound_webhook_environments', 'disabled_at', 'created_at',
].sort();

/** A project of its own for each test, so that changes do not leak between tests. */
async function freshProject(name = 'Settings client') {
  const { db, clock } = services();
  const created = await createProject(db, clock, { organizationId: 'org-settings-test', name, timezone: 'Europe/Paris' });
  return { id: created.project.id, live: created.liveKey, test: created.testKey };
}

describe('GET /v1/project', () => {
  test('the live key reads its own project: the fields of part 2, never key hashes or secrets', async () => {
    const p = await freshProject('Acme Newsletters');
    await cloud.api('GET', '/v1/webhooks/secret', { key: p.live }); // creates the live signing secret on the project item
    const res = await cloud.api('GET', '/v1/project', { key: p.live });
    expect(res.status).toBe(200);
    expect(res.body.success).toBe(true);
    const project = res.body.project as Record<string, unknown>;
    expect(Object.keys(project).sort()).toEqual(PROJECT_FIELDS);
    expect(project).toMatchObject({ id: p.id, name: 'Acme Newsletters', timezone: 'Europe/Paris', default_timezone: 'Europe/Paris', webhook_url: null, disabled_at: null });
    expect(JSON.stringify(res.body)).not.toMatch(/hash|whsec_|sk_(live|test)_/);
  });

  test('the test key reads the same project', async () => {
    const p = await freshProject();
    const live = await cloud.api('GET', '/v1/project', { key: p.live });
    const test = await cloud.api('GET', '/v1/project', { key: p.test });
    expect(test.status).toBe(200);
    expect(test.body).toEqual(live.body);
  });

  test('each key sees only its own project', async () => {
    const [a, b] = [await freshProject('Project A'), await freshProject('Project B')];
    expect(((await cloud.api('GET', '/v1/project', { key: a.live })).body.project as Record<string, unknown>).id).toBe(a.id);
    expect(((await cloud.api('GET', '/v1/project', { key: b.test })).body.project as Record<string, unknown>).id).toBe(b.id);
  });

  test('no key: 401', async () => {
    const res = await cloud.api('GET', '/v1/project', { key: null });
    expect(res.status).toBe(401);
  });
});

describe('PATCH /v1/project', () => {
  test('only the sent fields change, and a read right after shows them', async () => {
    const p = await freshProject('Before');
    const res = await cloud.api('PATCH', '/v1/project', {
      key: p.live,
      body: { name: '  After  ', webhook_url: 'https://hooks.acme.example/mail', inbound_webhook_environments: { staging: 'https://staging.acme.example/hooks' } },
    });
    expect(res.status).toBe(200);
    expect(res.body.project).toMatchObject({
      id: p.id,
      name: 'After',
      timezone: 'Europe/Paris',
      webhook_url: 'https://hooks.acme.example/mail',
      webhook_url_dev: null,
      inbound_webhook_environments: { staging: 'https://staging.acme.example/hooks' },
    });
    const read = await cloud.api('GET', '/v1/project', { key: p.live });
    expect(read.body).toEqual(res.body);
  });

  test('null clears a field, an empty URL too, and null empties the environments', async () => {
    const p = await freshProject();
    await cloud.api('PATCH', '/v1/project', {
      key: p.live,
      body: { webhook_url: 'https://a.example.com/h', webhook_url_dev: 'https://b.example.com/h', inbound_webhook_environments: { qa: 'https://qa.example.com/h' } },
    });
    const res = await cloud.api('PATCH', '/v1/project', { key: p.live, body: { timezone: null, webhook_url: null, webhook_url_dev: '', inbound_webhook_environments: null } });
    expect(res.status).toBe(200);
    expect(res.body.project).toMatchObject({ timezone: null, default_timezone: 'UTC', webhook_url: null, webhook_url_dev: null, inbound_webhook_environments: {} });
  });

  test('a test key may not change the settings: 403, and nothing changes', async () => {
    const p = await freshProject('Unchanged');
    const res = await cloud.api('PATCH', '/v1/project', { key: p.test, body: { name: 'Changed', webhook_url: 'https://evil.example.com/h' } });
    expect(res.status).toBe(403);
    expect(res.body).toEqual({ error: TEST_KEY_CANNOT_CHANGE_SETTINGS });
    const read = await cloud.api('GET', '/v1/project', { key: p.live });
    expect(read.body.project).toMatchObject({ name: 'Unchanged', webhook_url: null });
  });

  test.each([
    [{}, 'No recognised field to change; send one or more of name, timezone, country, webhook_url, webhook_url_dev, inbound_webhook_url, inbound_webhook_url_dev, inbound_webhook_environments'],
    [{ name: '   ' }, 'name cannot be empty'],
    [{ timezone: 'Mars/Olympus' }, 'timezone must be an IANA name such as Europe/Paris (got Mars/Olympus)'],
    [{ country: 'France' }, 'country must be a two-letter ISO 3166 code'],
    [{ webhook_url: 'not a url' }, 'webhook_url must be a URL'],
    [{ inbound_webhook_url: 'ftp://files.example.com/in' }, 'inbound_webhook_url must be an http or https URL'],
    [{ inbound_webhook_environments: { 'bad name': 'https://x.example.com' } }, 'Environment name bad name must match [a-zA-Z0-9_.-] and be at most 64 characters'],
    [{ inbound_webhook_environments: { qa: 'javascript:alert(1)' } }, 'inbound_webhook_environments.qa must be an http or https URL'],
  ])('%j is refused with 400 and the first problem', async (body, message) => {
    const p = await freshProject();
    const res = await cloud.api('PATCH', '/v1/project', { key: p.live, body });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ error: message });
  });

  test('fields that are not settings are ignored: no key hash, id or quota can be written', async () => {
    const p = await freshProject('Guarded');
    const before = await getProject(services().db, p.id, true);
    const alone = await cloud.api('PATCH', '/v1/project', { key: p.live, body: { live_key_hash: 'x', monthly_quota: 'unlimited', id: '00000000-0000-4000-8000-000000000000' } });
    expect(alone.status).toBe(400);
    const mixed = await cloud.api('PATCH', '/v1/project', { key: p.live, body: { name: 'Renamed', live_key_hash: 'x', organization_id: 'other', monthly_quota: 'unlimited' } });
    expect(mixed.status).toBe(200);
    const after = await getProject(services().db, p.id, true);
    expect(after).toEqual({ ...before, name: 'Renamed' });
    // The key still works: its hash was not touched.
    expect((await cloud.api('GET', '/v1/project', { key: p.live })).status).toBe(200);
  });

  test('a change reaches only the calling project', async () => {
    const [a, b] = [await freshProject('Project A'), await freshProject('Project B')];
    await cloud.api('PATCH', '/v1/project', { key: a.live, body: { webhook_url: 'https://a.example.com/hooks' } });
    expect(((await cloud.api('GET', '/v1/project', { key: b.live })).body.project as Record<string, unknown>).webhook_url).toBeNull();
  });
});
