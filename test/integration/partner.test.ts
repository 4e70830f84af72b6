import { overrideServices, services } from '../../composition/services';
import { RECEIVING_OFF, TRACKING_NOT_CONFIGURED } from '../../shared/identities/domains/subdomains';
import { createOrganization, issuePartnerKey, setMaxProjects } from '../../shared/platform/organizations/organization-service';
import { CounterBatch, dayOf } from '../../shared/identities/stats/domain-stats';
import { routeTable as routes } from '../../functions/route-table';
import { CLOUD_TIMEOUT_MS, sendBody, startTestCloud, type TestCloud } from './support/test-cloud';

let cloud: TestCloud;
let partnerKey: string;
/** A second organization, to prove isolation. */
let otherKey: string;

beforeAll(async () => {
  cloud = await startTestCloud();
  partnerKey = cloud.seed.partner_key;
  const { db, clock } = services();
  const other = await createOrganization(db, clock, { name: 'Other partner' });
  otherKey = (await issuePartnerKey(db, clock, other.id)).key;
}, CLOUD_TIMEOUT_MS);
afterAll(() => cloud?.stop());

let n = 0;
const unique = (prefix: string) => `${prefix}-${Date.now().toString(36)}-${n++}`;
const freshDomain = () => `p${Date.now().toString(36)}${n++}.example.com`;
const partner = (method: string, path: string, body?: unknown, key = partnerKey) => cloud.api(method, `/v1/partner${path}`, { key, body });
const create = async (body: Record<string, unknown> = {}, key = partnerKey) => partner('POST', '/projects', { name: unique('Client'), ...body }, key);

/** Expects the partner error shape: error, code and error_code with the same value. */
function expectPartnerError(res: { status: number; body: Record<string, unknown> }, status: number, code: string) {
  expect(res.status).toBe(status);
  expect(res.body.code).toBe(code);
  expect(res.body.error_code).toBe(code);
  expect(typeof res.body.error).toBe('string');
}

describe('POST /v1/partner/projects', () => {
  test('with only a name: 201 with project_id, slug and an api_key that works at once', async () => {
    const res = await create({ name: 'Acme Bakery' });
    expect(res.status).toBe(201);
    expect(res.body.project_id).toMatch(/^[0-9a-f-]{36}$/);
    expect(res.body.slug).toMatch(/^acme-bakery-[0-9a-f]{6}$/);
    expect(String(res.body.api_key)).toMatch(/^sk_live_/);
    const read = await cloud.api('GET', '/v1/activity/00000000-0000-4000-8000-000000000000', { key: res.body.api_key as string });
    expect(read.status).toBe(404);
  });

  test.each([
    [{ name: '' }, 'MISSING_NAME'],
    [{ name: undefined }, 'MISSING_NAME'],
    [{ timezone: 'Mars/Olympus' }, 'INVALID_TIMEZONE'],
    [{ domain: 'x.example.com' }, 'SENDER_REQUIRED_FOR_DOMAIN'],
    [{ sender: { name: 'A', email: 'a@x.example.com' } }, 'DOMAIN_REQUIRED_FOR_SENDER'],
    [{ domain: 'x.example.com', sender: { name: 'A', email: 'a@elsewhere.example.com' } }, 'SENDER_DOMAIN_MISMATCH'],
  ])('%j is refused with 400 %s', async (body, code) => {
    expectPartnerError(await create(body), 400, code);
  });

  test('timezone and country are kept and shown', async () => {
    const res = await create({ timezone: 'Asia/Tokyo', country: 'jp' });
    const one = await partner('GET', `/projects/${res.body.project_id}`);
    expect(one.body.project).toMatchObject({ timezone: 'Asia/Tokyo', default_timezone: 'Asia/Tokyo', country: 'JP', disabled_at: null });
  });

  test('external_key makes it idempotent: a retry returns the same project, without a key', async () => {
    const externalKey = unique('ext');
    const first = await create({ external_key: externalKey });
    const again = await create({ external_key: externalKey });
    expect(again.status).toBe(200);
    expect(again.body).toMatchObject({ project_id: first.body.project_id, slug: first.body.slug, existing: true });
    expect(again.body).not.toHaveProperty('api_key');
  });

  test('two concurrent calls with one external_key make one project', async () => {
    const externalKey = unique('race');
    const before = ((await partner('GET', '/projects')).body.projects as unknown[]).length;
    const [a, b] = await Promise.all([create({ external_key: externalKey }), create({ external_key: externalKey })]);
    expect(a.body.project_id).toBe(b.body.project_id);
    expect([a.status, b.status].sort()).toEqual([200, 201]);
    expect(((await partner('GET', '/projects')).body.projects as unknown[]).length).toBe(before + 1);
  });

  test('an external_key of a disabled project is 409 PROJECT_DISABLED with project_id', async () => {
    const externalKey = unique('gone');
    const first = await create({ external_key: externalKey });
    await partner('DELETE', `/projects/${first.body.project_id}`);
    const res = await create({ external_key: externalKey });
    expectPartnerError(res, 409, 'PROJECT_DISABLED');
    expect(res.body.project_id).toBe(first.body.project_id);
  });

  test('with a domain and sender: the domain pack with the 8 records plus reply and tracking, each with fqdn', async () => {
    const domain = freshDomain();
    const res = await create({ domain, sender: { name: 'Acme', email: `hello@${domain}` } });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ partial: false, errors: [], warnings: [], skipped: [] });
    const pack = res.body.domain as Record<string, any>;
    expect(pack).toMatchObject({ domain, verification_status: 'pending' });
    expect(pack.verification_url).toMatch(/\/verify\/[A-Za-z0-9_-]+$/);
    expect(pack.records).toHaveLength(10);
    expect(pack.records.map((r: any) => r.purpose)).toEqual([
      'provider_verification', 'dkim', 'dkim', 'dkim', 'spf', 'dmarc', 'return_path', 'return_path', 'reply_mx', 'tracking_cname',
    ]);
    expect(pack.records.map((r: any) => r.fqdn)).toEqual(pack.records.map((r: any) => (r.name === '@' ? domain : `${r.name}.${domain}`)));
    expect(res.body.sender).toMatchObject({ from_email: `hello@${domain}`, from_name: 'Acme' });
  });

  test('a domain that cannot be registered leaves a valid project: partial, errors[] on step domain', async () => {
    const domain = freshDomain();
    const owner = await create({ domain, sender: { name: 'A', email: `a@${domain}` } });
    await cloud.publishDns(domain, owner.body.api_key as string);
    await partner('POST', `/projects/${owner.body.project_id}/domains/${domain}/verify`);
    const res = await create({ domain, sender: { name: 'B', email: `b@${domain}` } });
    expect(res.status).toBe(201);
    expect(res.body.partial).toBe(true);
    expect(res.body.errors).toEqual([{ step: 'domain', error_code: 'DOMAIN_TAKEN', error: expect.any(String) }]);
    expect(String(res.body.api_key)).toMatch(/^sk_live_/);
  });
});

describe('The project quota (max_projects)', () => {
  test('creation past the quota is 403 MAX_PROJECTS_REACHED; disabling frees a place; reactivating needs one', async () => {
    const { db, clock } = services();
    const org = await createOrganization(db, clock, { name: 'Small partner', maxProjects: 1 });
    const key = (await issuePartnerKey(db, clock, org.id)).key;
    const first = await create({}, key);
    expect(first.status).toBe(201);
    expectPartnerError(await create({}, key), 403, 'MAX_PROJECTS_REACHED');
    expect((await partner('GET', '/whoami', undefined, key)).body.partner).toMatchObject({ max_projects: 1, active_projects: 1, remaining_projects: 0 });

    await partner('DELETE', `/projects/${first.body.project_id}`, undefined, key);
    const second = await create({}, key);
    expect(second.status).toBe(201);
    expectPartnerError(await partner('POST', `/projects/${first.body.project_id}/reactivate`, undefined, key), 403, 'MAX_PROJECTS_REACHED');

    await setMaxProjects(db, org.id, null);
    expect((await partner('POST', `/projects/${first.body.project_id}/reactivate`, undefined, key)).status).toBe(200);
    expect((await partner('GET', '/whoami', undefined, key)).body.partner).toMatchObject({ max_projects: null, active_projects: 2, remaining_projects: null });
  });
});

describe('Project lifecycle', () => {
  test('GET /projects lists the organization\'s projects with id, name, slug, created_at, disabled_at', async () => {
    const made = await create({ name: 'Listed' });
    const list = await partner('GET', '/projects');
    const row = (list.body.projects as any[]).find((p) => p.id === made.body.project_id);
    expect(row).toEqual({ id: made.body.project_id, name: 'Listed', slug: made.body.slug, created_at: expect.any(String), disabled_at: null });
    const others = await partner('GET', '/projects', undefined, otherKey);
    expect((others.body.projects as any[]).some((p) => p.id === made.body.project_id)).toBe(false);
  });

  test('GET /projects/:id has the project, domains, senders and health blocks', async () => {
    const domain = freshDomain();
    const made = await create({ domain, sender: { name: 'A', email: `a@${domain}` } });
    const res = await partner('GET', `/projects/${made.body.project_id}`);
    expect(Object.keys(res.body).sort()).toEqual(['domains', 'health', 'project', 'senders']);
    expect(res.body.domains).toEqual([expect.objectContaining({ domain, verification_status: 'pending', can_send: false })]);
    expect(res.body.senders).toEqual([expect.objectContaining({ from_email: `a@${domain}`, sender_source: 'manual' })]);
    expect(res.body.health).toMatchObject({ can_send: false, status: 'critical' });
    await cloud.publishDns(domain, made.body.api_key as string);
    await partner('POST', `/projects/${made.body.project_id}/domains/${domain}/verify`);
    expect((await partner('GET', `/projects/${made.body.project_id}`)).body.health).toMatchObject({ can_send: true });
  });

  test('PATCH changes only the sent fields; webhook_url and inbound_webhook_url are independent', async () => {
    const made = await create({ name: 'Before', timezone: 'Europe/Paris' });
    const id = made.body.project_id;
    const a = await partner('PATCH', `/projects/${id}`, { webhook_url: 'https://hooks.example.com/live' });
    expect(a.status).toBe(200);
    expect(a.body.project).toMatchObject({ name: 'Before', timezone: 'Europe/Paris', webhook_url: 'https://hooks.example.com/live', inbound_webhook_url: null });
    const b = await partner('PATCH', `/projects/${id}`, { inbound_webhook_url: 'https://hooks.example.com/in', name: 'After', ignored: true });
    expect(b.body.project).toMatchObject({ name: 'After', webhook_url: 'https://hooks.example.com/live', inbound_webhook_url: 'https://hooks.example.com/in' });
    expect((b.body.project as Record<string, unknown>).slug).toBe(made.body.slug);
    const c = await partner('PATCH', `/projects/${id}`, { inbound_webhook_environments: { staging: 'https://hooks.example.com/staging' }, webhook_url: null });
    expect(c.body.project).toMatchObject({ webhook_url: null, inbound_webhook_environments: { staging: 'https://hooks.example.com/staging' } });
  });

  test('PATCH with no recognised field is 400 EMPTY_PATCH; a bad URL is 400', async () => {
    const made = await create();
    expectPartnerError(await partner('PATCH', `/projects/${made.body.project_id}`, {}), 400, 'EMPTY_PATCH');
    expectPartnerError(await partner('PATCH', `/projects/${made.body.project_id}`, { color: 'blue' }), 400, 'EMPTY_PATCH');
    expect((await partner('PATCH', `/projects/${made.body.project_id}`, { webhook_url: 'ftp://x' })).status).toBe(400);
  });

  test('DELETE soft-disables: sending stops, keys still read, PATCH still works; reactivate is idempotent', async () => {
    const domain = freshDomain();
    const made = await create({ domain, sender: { name: 'A', email: `a@${domain}` } });
    const id = made.body.project_id as string;
    const key = made.body.api_key as string;
    await cloud.publishDns(domain, key);
    await partner('POST', `/projects/${id}/domains/${domain}/verify`);
    expect((await cloud.api('POST', '/v1/send-email', { key, body: sendBody(cloud, { sender_email: `a@${domain}` }) })).status).toBe(200);

    const off = await partner('DELETE', `/projects/${id}`);
    expect(off.body).toEqual({ project_id: id, disabled: true });
    const refused = await cloud.api('POST', '/v1/send-email', { key, body: sendBody(cloud, { sender_email: `a@${domain}` }) });
    expect(refused.status).toBe(403);
    // Nothing else that makes mail leave: no mailbox verification, from either API.
    const mailbox = await cloud.api('POST', '/domains/verify-email', { key, body: { email: `someone.${id}@example.net` } });
    expect(mailbox.status).toBe(403);
    expect(mailbox.body).toEqual({ error: 'Project is disabled; sending is stopped' });
    expectPartnerError(await partner('POST', `/projects/${id}/senders`, { name: 'M', email: `m.${id}@example.net`, allow_unauthenticated: true }), 403, 'PROJECT_DISABLED');
    expect((await cloud.outbox()).some((m) => m.destination.to.join().includes(id))).toBe(false);
    expect((await cloud.api('GET', '/v1/activity/00000000-0000-4000-8000-000000000000', { key })).status).toBe(404);
    expect((await partner('PATCH', `/projects/${id}`, { name: 'Still editable' })).status).toBe(200);
    expect(((await partner("GET", `/projects/${id}`)).body.project as Record<string, unknown>).disabled_at).toEqual(expect.any(String));

    const on = await partner('POST', `/projects/${id}/reactivate`);
    expect(on.status).toBe(200);
    expect(on.body.project).toMatchObject({ id, name: 'Still editable', disabled_at: null });
    expect((await partner('POST', `/projects/${id}/reactivate`)).status).toBe(200);
    expect((await cloud.api('POST', '/v1/send-email', { key, body: sendBody(cloud, { sender_email: `a@${domain}` }) })).status).toBe(200);
  });
});

describe('Domains and senders under a project', () => {
  test('POST domains answers the pack unwrapped (201), then 200 reused with existing reply and tracking skipped', async () => {
    const made = await create();
    const id = made.body.project_id;
    const domain = freshDomain();
    const first = await partner('POST', `/projects/${id}/domains`, { domain, sender: { name: 'A', email: `a@${domain}` } });
    expect(first.status).toBe(201);
    expect(first.body).toMatchObject({ domain, reused: false, warnings: [], skipped: [] });
    expect(first.body.records).toHaveLength(10);
    const again = await partner('POST', `/projects/${id}/domains`, { domain, sender: { name: 'A', email: `a@${domain}` } });
    expect(again.status).toBe(200);
    expect(again.body.reused).toBe(true);
    expect((again.body.skipped as any[]).map((s) => s.step)).toEqual(['reply_domain', 'tracking_domain']);
  });

  test('without receiving the domain is onboarded all the same, with the reply step as a warning', async () => {
    const made = await create();
    const domain = freshDomain();
    const configured = services().config;
    overrideServices({ config: { ...configured, RECEIVING: 'off' } });
    try {
      const res = await partner('POST', `/projects/${made.body.project_id}/domains`, { domain, sender: { name: 'A', email: `a@${domain}` } });
      expect(res.status).toBe(201);
      expect(res.body.warnings).toEqual([{ step: 'reply_domain', error_code: 'RECEIVING_OFF', error: RECEIVING_OFF }]);
      expect(res.body.reply_domain).toBeNull();
      expect((res.body.records as any[]).map((r) => r.purpose)).not.toContain('reply_mx');
      expect(res.body.tracking_domain).toMatchObject({ domain: `track.${domain}` });
    } finally {
      overrideServices({ config: configured });
    }
  });

  test('without a tracking host the domain is onboarded all the same, with the tracking step as a warning', async () => {
    const made = await create();
    const domain = freshDomain();
    const configured = services().config;
    overrideServices({ config: { ...configured, TRACKING_HOST: undefined } });
    try {
      const res = await partner('POST', `/projects/${made.body.project_id}/domains`, { domain, sender: { name: 'A', email: `a@${domain}` } });
      expect(res.status).toBe(201);
      expect(res.body.warnings).toEqual([{ step: 'tracking_domain', error_code: 'TRACKING_NOT_CONFIGURED', error: TRACKING_NOT_CONFIGURED }]);
      expect(res.body.tracking_domain).toBeNull();
      expect((res.body.records as any[]).map((r) => r.purpose)).not.toContain('tracking_cname');
      expect(res.body.reply_domain).toMatchObject({ domain: `reply.${domain}` });
    } finally {
      overrideServices({ config: configured });
    }
  });

  test('loose sender fields are refused: the sender must be nested', async () => {
    const made = await create();
    const domain = freshDomain();
    const res = await partner('POST', `/projects/${made.body.project_id}/domains`, { domain, name: 'A', email: `a@${domain}` });
    expectPartnerError(res, 400, 'SENDER_REQUIRED_FOR_DOMAIN');
  });

  test('GET domains lists them; GET one gives record statuses with skipped []; unknown is 404 DOMAIN_NOT_FOUND', async () => {
    const domain = freshDomain();
    const made = await create({ domain, sender: { name: 'A', email: `a@${domain}` } });
    const id = made.body.project_id;
    const list = await partner('GET', `/projects/${id}/domains`);
    expect(list.body.domains).toEqual([expect.objectContaining({ domain, verification_status: 'pending', verification_url: expect.any(String) })]);
    const one = await partner('GET', `/projects/${id}/domains/${domain}`);
    expect(one.body).toMatchObject({ domain, skipped: [] });
    expect((one.body.records as any[]).every((r) => r.status === 'not_set' && r.fqdn)).toBe(true);
    expectPartnerError(await partner('GET', `/projects/${id}/domains/nope.example.org`), 404, 'DOMAIN_NOT_FOUND');
  });

  test('verify checks identity, DKIM and return path and shows reply and tracking state read-only', async () => {
    const domain = freshDomain();
    const made = await create({ domain, sender: { name: 'A', email: `a@${domain}` } });
    await cloud.publishDns(domain, made.body.api_key as string);
    const res = await partner('POST', `/projects/${made.body.project_id}/domains/${domain}/verify`);
    expect(res.body).toMatchObject({ domain, verification_status: 'verified', can_send: true });
    expect(res.body.reply_domain).toMatchObject({ domain: `reply.${domain}`, status: 'pending' });
    expect(res.body.tracking_domain).toMatchObject({ domain: `track.${domain}`, status: 'pending' });
  });

  test('senders: authenticated on a verified domain; 422 DOMAIN_NOT_VERIFIED otherwise; magic link with the flag', async () => {
    const domain = freshDomain();
    const made = await create({ domain, sender: { name: 'A', email: `a@${domain}` } });
    const id = made.body.project_id;
    const pending = await partner('POST', `/projects/${id}/senders`, { name: 'B', email: `b@${domain}` });
    expectPartnerError(pending, 422, 'DOMAIN_NOT_VERIFIED');
    expect(pending.body.verification_status).toBe('pending');
    const unregistered = await partner('POST', `/projects/${id}/senders`, { sender: { name: 'C', email: 'c@unregistered.example.org' } });
    expectPartnerError(unregistered, 422, 'DOMAIN_NOT_VERIFIED');
    expect(unregistered.body.verification_status).toBeNull();

    const magic = await partner('POST', `/projects/${id}/senders`, { name: 'C', email: 'c@unregistered.example.org', allow_unauthenticated: true });
    expect(magic.status).toBe(201);
    expect(magic.body).toMatchObject({ path: 'magic_link', sender_source: 'magic_link', domain_authenticated: false, email_verified: false });
    expect(String(magic.body.warning)).toMatch(/DKIM/);

    await cloud.publishDns(domain, made.body.api_key as string);
    await partner('POST', `/projects/${id}/domains/${domain}/verify`);
    const authenticated = await partner('POST', `/projects/${id}/senders`, { sender: { name: 'B', email: `b@${domain}` } });
    expect(authenticated.status).toBe(201);
    expect(authenticated.body).toMatchObject({ path: 'domain', domain_authenticated: true, can_send: true, sender_source: 'admin' });

    const list = await partner('GET', `/projects/${id}/senders`);
    expect((list.body.senders as any[]).map((s) => [s.from_email, s.sender_source]).sort()).toEqual(
      [[`a@${domain}`, 'manual'], [`b@${domain}`, 'admin'], ['c@unregistered.example.org', 'magic_link']].sort(),
    );
  });
});

describe('Keys, figures and who am I', () => {
  test('rotating the live key cuts the old one at once; the test key rotates independently', async () => {
    const made = await create();
    const id = made.body.project_id;
    const oldLive = made.body.api_key as string;
    const oldTest = made.body.test_api_key as string;
    const probe = (key: string) => cloud.api('GET', '/v1/activity/00000000-0000-4000-8000-000000000000', { key });
    const rotated = await partner('POST', `/projects/${id}/api-key/rotate`);
    expect(rotated.body).toMatchObject({ project_id: id, mode: 'live', api_key: expect.stringMatching(/^sk_live_/) });
    expect((await probe(oldLive)).status).toBe(401);
    expect((await probe(rotated.body.api_key as string)).status).toBe(404);
    expect((await probe(oldTest)).status).toBe(404);
    const test = await partner('POST', `/projects/${id}/api-key/rotate`, { mode: 'test' });
    expect((await probe(oldTest)).status).toBe(401);
    expect((await probe(test.body.api_key as string)).status).toBe(404);
  });

  test('stats sum the domain counters over the period', async () => {
    const domain = freshDomain();
    const made = await create({ domain, sender: { name: 'A', email: `a@${domain}` } });
    const id = made.body.project_id as string;
    const counts = new CounterBatch();
    counts.add(id, domain, dayOf(new Date()), 'sent', 40);
    counts.add(id, domain, dayOf(new Date()), 'delivered', 38);
    counts.add(id, domain, dayOf(new Date()), 'hard_bounced', 2);
    await counts.flush(services().db);
    const res = await partner('GET', `/projects/${id}/stats`);
    expect(res.body.totals).toMatchObject({ sent: 40, delivered: 38, hard_bounced: 2, hard_bounce_rate: 5 });
    expect(res.body.domains).toEqual([expect.objectContaining({ sender_domain: domain, sent: 40 })]);
    expect((await partner('GET', `/projects/${id}/stats?since=yesterday`)).status).toBe(400);
  });

  test('whoami names the organization and its quota; null means unlimited', async () => {
    const res = await partner('GET', '/whoami');
    expect(res.body.organization).toMatchObject({ id: cloud.seed.organization_id, root_project_id: cloud.seed.project_id });
    expect(res.body.partner).toMatchObject({ max_projects: null, remaining_projects: null, active_projects: expect.any(Number) });
  });
});

describe('Isolation (part 5 rule 7)', () => {
  const projectPaths = routes.filter((r) => r.group === 'partner' && r.path.includes('{projectId}'));

  test.each(projectPaths.map((r) => [r.method, r.path]))('%s %s with another organization\'s project is 404 NOT_FOUND', async (method, path) => {
    const foreign = await create({}, otherKey);
    const domain = freshDomain();
    const url = path.replace('/v1/partner', '').replace('{projectId}', foreign.body.project_id as string).replace('{domain}', domain);
    const body = method === 'PATCH' ? { name: 'Hijack' } : method === 'POST' ? { domain, sender: { name: 'A', email: `a@${domain}` }, name: 'A', email: `a@${domain}` } : undefined;
    expectPartnerError(await partner(method, url, body), 404, 'NOT_FOUND');
    expect(((await partner("GET", `/projects/${foreign.body.project_id}`, undefined, otherKey)).body.project as Record<string, unknown>).name).not.toBe('Hijack');
  });

  test('a project key on a partner path is a 401 with the partner wording', async () => {
    const res = await cloud.api('GET', '/v1/partner/whoami', { key: cloud.seed.live_key });
    expect(res.status).toBe(401);
    expect(res.body).toEqual({ error: 'Invalid API key prefix. Expected sk_partner_*.', code: 'UNAUTHORIZED', error_code: 'UNAUTHORIZED' });
  });

  test('a made-up project id is a 404 too', async () => {
    expectPartnerError(await partner('GET', '/projects/00000000-0000-4000-8000-000000000000'), 404, 'NOT_FOUND');
    expectPartnerError(await partner('GET', '/projects/not-a-uuid'), 404, 'NOT_FOUND');
  });
});
