import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import { PurgeQueueCommand } from '@aws-sdk/client-sqs';
import { CreateEmailIdentityCommand, DeleteEmailIdentityCommand, GetEmailIdentityCommand, SESv2Client } from '@aws-sdk/client-sesv2';
import { checkCall, runAs } from '../../local/iam/enforce';
import { identityOwnerFor } from '../../local/iam/local-iam';
import { handler as recheckHandler } from '../../functions/domain-recheck/handler';
import { asFunction } from '../../local/iam/function-roles';
import { overrideServices, services } from '../../composition/services';
import { TRACKING_NOT_CONFIGURED, getSubdomain, putSubdomain } from '../../shared/identities/domains/subdomains';
import { createProject } from '../../shared/platform/projects/project-service';
import { CounterBatch, dayOf } from '../../shared/identities/stats/domain-stats';
import type { Clock } from '../../shared/platform/core/ports';
import { CLOUD_TIMEOUT_MS, WORKERS_EXCEPT_FANOUT, sendBody, startTestCloud, drainEvents, type TestCloud } from './support/test-cloud';

/** The scheduled domain re-check as Lambda runs it: as its own role. */
const recheck = asFunction('domain-recheck', recheckHandler);

let cloud: TestCloud;
let realClock: Clock;

beforeAll(async () => {
  // This file reads the events queue itself, so the webhook fan-out must not consume it.
  cloud = await startTestCloud({ workers: WORKERS_EXCEPT_FANOUT });
  realClock = services().clock;
}, CLOUD_TIMEOUT_MS);
afterAll(async () => {
  await cloud?.stop();
});
afterEach(() => overrideServices({ clock: realClock }));

let counter = 0;
/** A fresh domain name per test, so tests do not share state. */
const fresh = (prefix = '') => `${prefix}d${Date.now().toString(36)}${(counter++).toString(36)}.example.com`;
const register = (domain: string, key?: string, sender = `hello@${domain}`) =>
  cloud.api('POST', '/domains/register', { key, body: { domain, sender_name: 'Acme', sender_email: sender } });
/** Registers a domain and publishes its records to the local DNS, as its owner would before verifying. */
const registerAndPublish = async (domain: string, key?: string) => {
  const res = await register(domain, key);
  await cloud.publishDns(domain, key);
  return res;
};

const eventsFor = (events: Record<string, any>[], domain: string) => events.filter((e) => e.data?.domain === domain || e.data?.sender_email?.endsWith(domain));

describe('POST /domains/register (4.12, part 2)', () => {
  test('creates the 8 records of part 2 exactly, every one not_set and never checked', async () => {
    const domain = fresh();
    const res = await register(domain);
    expect(res.status).toBe(201);
    const body = res.body as Record<string, any>;
    expect(body).toMatchObject({ success: true, domain, verification_status: 'pending', reused: false });
    expect(body.sender).toEqual({ from_name: 'Acme', from_email: `hello@${domain}`, domain_authenticated: false });
    expect(body.sender_profile_id).toMatch(/^[0-9a-f-]{36}$/);
    expect(body.dkim_tokens).toHaveLength(3);
    const [t1, t2, t3] = body.dkim_tokens as string[];
    const rows = (body.dns_records as any[]).map((r) => [r.record_type, r.name, r.purpose, r.value, r.ttl_hint, r.status, r.last_checked_at]);
    expect(rows).toEqual([
      ['TXT', '_amazonses', 'provider_verification', body.verification_token, 300, 'not_set', null],
      ['CNAME', `${t1}._domainkey`, 'dkim', `${t1}.dkim.amazonses.com`, 1800, 'not_set', null],
      ['CNAME', `${t2}._domainkey`, 'dkim', `${t2}.dkim.amazonses.com`, 1800, 'not_set', null],
      ['CNAME', `${t3}._domainkey`, 'dkim', `${t3}.dkim.amazonses.com`, 1800, 'not_set', null],
      ['TXT', '@', 'spf', 'v=spf1 include:amazonses.com ~all', 300, 'not_set', null],
      ['TXT', '_dmarc', 'dmarc', `v=DMARC1; p=none; rua=mailto:d-${body.identity_id}@reply.mailroom.local`, 300, 'not_set', null],
      ['MX', 'send', 'return_path', '10 feedback-smtp.us-east-1.amazonses.com', 300, 'not_set', null],
      ['TXT', 'send', 'return_path', 'v=spf1 include:amazonses.com ~all', 300, 'not_set', null],
    ]);
    expect(body.verification_token.length).toBeGreaterThan(20);
    expect(body.verification_url).toMatch(/^http:\/\/localhost:\d+\/verify\/[A-Za-z0-9_-]{32}$/);
    for (const r of body.dns_records as any[]) expect(r.id).toMatch(/^[0-9a-f-]{36}$/);
  });

  test.each([
    [{ sender_name: 'A', sender_email: 'a@x.com' }, 'Missing required fields: domain, sender_name, sender_email'],
    [{ domain: 'x.com', sender_email: 'a@x.com' }, 'Missing required fields: domain, sender_name, sender_email'],
    [{ domain: 'not a domain', sender_name: 'A', sender_email: 'a@x.com' }, 'Invalid domain: not a domain'],
    [{ domain: 'x.com', sender_name: 'A', sender_email: 'a@other.com' }, 'sender_email must end in @x.com'],
    [{ domain: 'x.com', sender_name: 'A', sender_email: 'a@sub.x.com' }, 'sender_email must end in @x.com'],
  ])('refuses %j with 400', async (body, message) => {
    const res = await cloud.api('POST', '/domains/register', { body });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ error: message });
  });

  test('registering again reuses the identity and its records (201, reused: true)', async () => {
    const domain = fresh();
    const first = (await register(domain)).body as Record<string, any>;
    const again = await register(domain);
    expect(again.status).toBe(201);
    expect(again.body).toMatchObject({ reused: true, identity_id: first.identity_id, verification_token: first.verification_token });
    expect((again.body.dns_records as any[]).map((r) => r.value)).toEqual((first.dns_records as any[]).map((r) => r.value));
    expect(again.body.verification_url).toBe(first.verification_url);
  });

  test('a domain verified by another project is a 409', async () => {
    const { db, clock } = services();
    const other = await createProject(db, clock, { organizationId: cloud.seed.organization_id, name: 'Other' });
    const taken = fresh();
    await registerAndPublish(taken);
    await cloud.api('POST', `/domains/${taken}/verify`);
    const refused = await register(taken, other.liveKey);
    expect(refused.status).toBe(409);
    expect(refused.body).toEqual({ error: `Domain ${taken} is already verified by another sender` });
  });
});

describe('Ownership of a domain: two projects race (docs/decisions.md)', () => {
  const newProject = async (name: string) => {
    const { db, clock } = services();
    return (await createProject(db, clock, { organizationId: cloud.seed.organization_id, name })).liveKey;
  };
  const provider = (body: Record<string, unknown>) => (body.dns_records as any[]).find((r) => r.purpose === 'provider_verification');

  test("a second project's registration of a pending domain neither sees nor disturbs the first's", async () => {
    const [first, second] = [await newProject('First'), await newProject('Second')];
    const domain = fresh();
    const a = await register(domain, first);
    const b = await register(domain, second);
    expect([a.status, b.status]).toEqual([201, 201]);
    expect(b.body.reused).toBe(false);
    expect(b.body.verification_token).not.toBe(a.body.verification_token);
    expect(b.body.identity_id).not.toBe(a.body.identity_id);
    const still = await cloud.api('GET', `/domains/${domain}/dns-records`, { key: first });
    expect(still.status).toBe(200);
    expect(still.body).toMatchObject({ identity_id: a.body.identity_id, verification_status: 'pending' });
    expect(provider(still.body).value).toBe(a.body.verification_token);
  });

  test("SES verifying the identity is not enough: without this project's own token in DNS the domain stays pending and cannot send", async () => {
    const key = await newProject('Unproven');
    const domain = fresh();
    await register(domain, key);
    const res = await cloud.api('POST', `/domains/${domain}/verify`, { key });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ verification_status: 'pending', can_send: false });
    expect(provider(res.body).status).toBe('not_set');
    expect((res.body.dns_records as any[]).filter((r) => r.purpose === 'dkim').every((r) => r.status === 'verified')).toBe(true);
  });

  test.each([
    ['the first project publishes first', 0],
    ['the second project publishes first', 1],
  ])('%s: it verifies and owns the name; the other stays pending, intact, and gets 409 once it publishes too', async (_name, winnerIndex) => {
    const keys = [await newProject('Racer A'), await newProject('Racer B')];
    const domain = fresh();
    const registrations = [await register(domain, keys[0]), await register(domain, keys[1])];
    const [winner, loser] = winnerIndex === 0 ? keys : [keys[1], keys[0]];
    const loserRegistration = winnerIndex === 0 ? registrations[1] : registrations[0];

    await cloud.publishDns(domain, winner);
    // The winner's token is in DNS now, not the loser's: the loser cannot verify on it.
    const early = await cloud.api('POST', `/domains/${domain}/verify`, { key: loser });
    expect(early.body).toMatchObject({ verification_status: 'pending', can_send: false });
    expect(provider(early.body).status).toBe('mismatch');

    expect((await cloud.api('POST', `/domains/${domain}/verify`, { key: winner })).body).toMatchObject({ verification_status: 'verified', can_send: true });

    await cloud.publishDns(domain, loser);
    const late = await cloud.api('POST', `/domains/${domain}/verify`, { key: loser });
    expect(late.status).toBe(409);
    expect(late.body).toEqual({ error: `Domain ${domain} is already verified by another sender` });
    const kept = await cloud.api('GET', `/domains/${domain}/status`, { key: loser });
    expect(kept.status).toBe(200);
    expect(kept.body).toMatchObject({ identity_id: loserRegistration.body.identity_id, verification_status: 'pending', can_send: false });
    expect((await cloud.api('POST', `/domains/${domain}/recreate`, { key: loser })).status).toBe(409);
    expect((await cloud.api('GET', `/domains/${domain}/status`, { key: winner })).body).toMatchObject({ verification_status: 'verified', can_send: true });

    // Mail from the name goes out for the owner only.
    const sent = await cloud.api('POST', '/v1/send-email', { key: loser, body: sendBody(cloud, { sender_email: `hello@${domain}` }) });
    expect((await cloud.waitForActivity(sent.body.email_id as string, loser, (a) => a.current_status !== 'queued')).error_code).toBe('sender_not_verified');
  });
});

describe('GET /domains/:domain/dns-records and /status', () => {
  test('give the stored records and state without asking anyone, and 404 for a domain not in the project', async () => {
    const domain = fresh();
    await register(domain);
    const records = await cloud.api('GET', `/domains/${domain}/dns-records`);
    expect(records.status).toBe(200);
    expect(records.body).toMatchObject({ success: true, domain, verification_status: 'pending' });
    expect((records.body.dns_records as any[]).every((r) => r.last_checked_at === null)).toBe(true);
    const status = await cloud.api('GET', `/domains/${domain}/status`);
    expect(status.body).toMatchObject({ domain, can_send: false, verification_status: 'pending' });
    expect((await cloud.api('GET', '/domains/unknown.example.org/dns-records')).status).toBe(404);
    expect((await cloud.api('GET', '/domains/unknown.example.org/status')).status).toBe(404);
    expect((await cloud.api('POST', '/domains/unknown.example.org/verify')).status).toBe(404);
  });
});

describe('GET /domains/:domain (one domain as stored, for its page)', () => {
  test('gives the identity, its records, its reply and tracking domains with their records, its state and its senders; 404 for a domain not in the project', async () => {
    const domain = fresh();
    const registered = (await register(domain)).body as Record<string, any>;
    await cloud.api('POST', '/domains/reply', { body: { domain } });
    const res = await cloud.api('GET', `/domains/${domain.toUpperCase()}`);
    expect(res.status).toBe(200);
    const body = res.body as Record<string, any>;
    expect(body).toMatchObject({ success: true, domain, identity_id: registered.identity_id, verification_status: 'pending', can_send: false, send_ready: false, details: null, last_checked_at: null, tracking_domain: null });
    expect(body.dns_records).toEqual(registered.dns_records);
    expect(body.reply_domain).toMatchObject({ domain: `reply.${domain}`, status: 'pending', records: [expect.objectContaining({ record_type: 'MX', purpose: 'reply_mx' })] });
    expect(body.senders).toEqual([expect.objectContaining({ id: registered.sender_profile_id, from_email: `hello@${domain}`, from_name: 'Acme', domain_authenticated: false })]);

    await cloud.publishDns(domain);
    await cloud.api('POST', `/domains/${domain}/verify`);
    const after = (await cloud.api('GET', `/domains/${domain}`)).body as Record<string, any>;
    expect(after).toMatchObject({ verification_status: 'verified', can_send: true, details: { dkim_verification: 'SUCCESS' } });
    expect(after.senders[0]).toMatchObject({ domain_authenticated: true, can_send: true });
    expect(after.last_checked_at).not.toBeNull();

    expect((await cloud.api('GET', '/domains/unknown.example.org')).status).toBe(404);
    expect((await cloud.api('GET', '/domains/not_a_domain')).status).toBe(400);
    // The literal route still answers: /domains/health is no domain named "health".
    expect((await cloud.api('GET', '/domains/health')).body).toHaveProperty('summary');
  });
});

describe('POST /domains/:domain/verify and the state machine (part 3)', () => {
  test('verifies the domain: send_ready then verified, each once; SPF and DMARC wait for the sweep', async () => {
    await drainEvents(cloud);
    const domain = fresh();
    await registerAndPublish(domain);
    const res = await cloud.api('POST', `/domains/${domain}/verify`);
    expect(res.status).toBe(200);
    const body = res.body as Record<string, any>;
    expect(body).toMatchObject({ success: true, domain, verification_status: 'verified', can_send: true });
    expect(body.details).toEqual({ domain_verification: 'SUCCESS', dkim_verification: 'SUCCESS', mail_from_status: 'SUCCESS' });
    expect(body.sender_profile).toMatchObject({ from_email: `hello@${domain}`, domain_authenticated: true });
    const byPurpose = Object.fromEntries((body.dns_records as any[]).map((r) => [`${r.purpose}:${r.record_type}:${r.name}`, r.status]));
    expect(Object.entries(byPurpose).filter(([k]) => k.startsWith('dkim')).every(([, s]) => s === 'verified')).toBe(true);
    expect(byPurpose['spf:TXT:@']).toBe('not_set');
    expect(byPurpose['dmarc:TXT:_dmarc']).toBe('not_set');
    expect(byPurpose['return_path:MX:send']).toBe('verified');
    expect((body.dns_records as any[]).every((r) => typeof r.last_checked_at === 'string')).toBe(true);

    await cloud.api('POST', `/domains/${domain}/verify`);
    const events = eventsFor(await drainEvents(cloud), domain);
    expect(events.map((e) => e.event)).toEqual(['domain.send_ready', 'domain.verified']);
    expect(events[0]).toMatchObject({ project_id: cloud.seed.project_id, data: { identity_id: body.identity_id, domain, can_send: true } });
    expect(events[1].data).toEqual({
      identity_id: body.identity_id,
      domain,
      verification_status: 'verified',
      previous_verification_status: 'pending',
      can_send: true,
      details: { domain_verification: 'SUCCESS', dkim_verification: 'SUCCESS' },
    });
    expect((await cloud.api('GET', `/domains/${domain}/status`)).body).toMatchObject({ can_send: true, send_ready: true });
  });

  test('a domain that fails verification emits domain.failed once and cannot send', async () => {
    await drainEvents(cloud);
    const domain = fresh('fail.');
    await register(domain);
    const res = await cloud.api('POST', `/domains/${domain}/verify`);
    expect(res.body).toMatchObject({ verification_status: 'failed', can_send: false });
    await cloud.api('POST', `/domains/${domain}/verify`);
    const events = eventsFor(await drainEvents(cloud), domain);
    expect(events.map((e) => e.event)).toEqual(['domain.failed']);
    expect(events[0].data).toMatchObject({ verification_status: 'failed', previous_verification_status: 'pending', can_send: false });
  });

  test('the periodic re-check verifies a pending domain when its check is due, and not before', async () => {
    await drainEvents(cloud);
    const domain = fresh();
    await registerAndPublish(domain);
    await recheck();
    expect((await cloud.api('GET', `/domains/${domain}/status`)).body).toMatchObject({ verification_status: 'pending' });
    const later = new Date(Date.now() + 6 * 60_000);
    overrideServices({ clock: { now: () => later } });
    await recheck();
    expect((await cloud.api('GET', `/domains/${domain}/status`)).body).toMatchObject({ verification_status: 'verified', can_send: true });
    expect(eventsFor(await drainEvents(cloud), domain).map((e) => e.event)).toEqual(['domain.send_ready', 'domain.verified']);
  });

  test('mail from a registered domain goes out only once it can send', async () => {
    const domain = fresh();
    await registerAndPublish(domain);
    const early = await cloud.api('POST', '/v1/send-email', { body: sendBody(cloud, { sender_email: `hello@${domain}` }) });
    expect((await cloud.waitForActivity(early.body.email_id as string, cloud.seed.live_key, (a) => a.current_status !== 'queued')).error_code).toBe(
      'sender_not_verified',
    );
    await cloud.api('POST', `/domains/${domain}/verify`);
    const later = await cloud.api('POST', '/v1/send-email', { body: sendBody(cloud, { sender_email: `news@${domain}` }) });
    expect((await cloud.waitForActivity(later.body.email_id as string, cloud.seed.live_key, (a) => !['queued', 'sent'].includes(a.current_status as string))).current_status).toBe('delivered');
  });
});

describe('POST /domains/:domain/recreate', () => {
  test('issues new DKIM tokens and records for a failed domain, back to pending', async () => {
    const domain = fresh('fail.');
    const first = (await register(domain)).body as Record<string, any>;
    await cloud.api('POST', `/domains/${domain}/verify`);
    const res = await cloud.api('POST', `/domains/${domain}/recreate`);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ recreated: true, verification_status: 'pending', can_send: false, identity_id: first.identity_id });
    expect(res.body.dkim_tokens).not.toEqual(first.dkim_tokens);
    const dkim = (res.body.dns_records as any[]).filter((r) => r.purpose === 'dkim');
    expect(dkim.map((r) => r.name)).toEqual((res.body.dkim_tokens as string[]).map((t) => `${t}._domainkey`));
    expect(dkim.every((r) => r.status === 'not_set')).toBe(true);
    expect((res.body.dns_records as any[])).toHaveLength(8);
  });

  test('a verified domain has nothing to recreate (409)', async () => {
    const domain = fresh();
    await registerAndPublish(domain);
    await cloud.api('POST', `/domains/${domain}/verify`);
    expect((await cloud.api('POST', `/domains/${domain}/recreate`)).status).toBe(409);
  });
});

describe('SES identities this deployment did not create for the project (docs/decisions.md)', () => {
  // Another application of the same AWS account, talking to SES directly.
  const ses = () => new SESv2Client({});
  const identityOf = async (domain: string) => ses().send(new GetEmailIdentityCommand({ EmailIdentity: domain }));
  const newProject = async (name: string) => {
    const { db, clock } = services();
    return (await createProject(db, clock, { organizationId: cloud.seed.organization_id, name })).liveKey;
  };

  const notOurs = (domain: string) => ({
    error: `Domain ${domain} already has an SES identity that this deployment did not create (made by hand, by another application, or by an earlier deployment); it cannot be registered or changed here: delete it in SES first, or use another domain`,
  });
  // What an earlier deployment of this same stack (destroyed, its identities left in SES) tagged its
  // identities with: the stack's name, as deployments did before they were told apart, and the value
  // the stack's policy gives a deployment with another table (a redeploy's), as this cloud's has its own.
  const earlierDeployments: [string, () => string][] = [
    ['tagged with the stack name, as deployments did before', () => 'Mailroom'],
    ['the same stack, another table', () => identityOwnerFor(`mailroom-${randomUUID()}`)],
  ];
  type Tags = { Key: string; Value: string }[];

  test.each<[string, () => Tags]>([
    ['made by hand (no tags)', () => []],
    ['made by another deployment', () => [{ Key: 'mailroom:stack', Value: 'SomeOtherStack' }, { Key: 'mailroom:project', Value: 'p' }]],
    // Even for this very project's id: a project of an earlier deployment is another project.
    ...earlierDeployments.map(([name, value]): [string, () => Tags] => [`made by an earlier deployment (${name})`, () => [{ Key: 'mailroom:stack', Value: value() }, { Key: 'mailroom:project', Value: cloud.seed.project_id }]]),
  ])('registering a domain whose identity exists at SES, %s, is refused with 409 and leaves the identity untouched', async (_name, tags) => {
    const domain = fresh();
    await ses().send(new CreateEmailIdentityCommand({ EmailIdentity: domain, Tags: tags() }));
    const before = await identityOf(domain);
    const res = await register(domain);
    expect(res.status).toBe(409);
    expect(res.body).toEqual(notOurs(domain));
    const after = await identityOf(domain);
    expect(after.MailFromAttributes).toBeUndefined();
    expect(after.DkimAttributes?.Tokens).toEqual(before.DkimAttributes?.Tokens);
    expect((await cloud.api('GET', `/domains/${domain}/status`)).status).toBe(404);
  });

  test.each(earlierDeployments)("an identity of an earlier deployment (%s) under a registered name: recreate refuses (409) and deletes nothing, and IAM would refuse to change it", async (_name, value) => {
    const domain = fresh();
    expect((await register(domain)).status).toBe(201);
    // The operator's SES now holds the earlier deployment's identity under that name.
    await ses().send(new DeleteEmailIdentityCommand({ EmailIdentity: domain }));
    await ses().send(new CreateEmailIdentityCommand({ EmailIdentity: domain, Tags: [{ Key: 'mailroom:stack', Value: value() }, { Key: 'mailroom:project', Value: cloud.seed.project_id }] }));
    const before = await identityOf(domain);
    const res = await cloud.api('POST', `/domains/${domain}/recreate`);
    expect(res.status).toBe(409);
    expect(res.body).toEqual(notOurs(domain));
    const after = await identityOf(domain);
    expect(after.DkimAttributes?.Tokens).toEqual(before.DkimAttributes?.Tokens);
    expect(after.Tags).toEqual(before.Tags);
    // Whatever the code did, the domains function's role may not delete it or change its MAIL FROM.
    for (const command of ['DeleteEmailIdentityCommand', 'PutEmailIdentityMailFromAttributesCommand']) {
      expect(() => runAs('domains', () => checkCall('SESv2Client', command, { EmailIdentity: domain }))).toThrow(/domains is not authorized to perform: ses:\w+ on resource: .*identity\//);
    }
  });

  test('an identity this deployment created for the project, whose registration never reached the table (a crash), is adopted on retry', async () => {
    const domain = fresh();
    // CreateEmailIdentity went through, as the domains function makes it; then the function died.
    const created = await runAs('domains', () =>
      ses().send(new CreateEmailIdentityCommand({ EmailIdentity: domain, ConfigurationSetName: services().config.SES_CONFIGURATION_SET, Tags: [{ Key: 'mailroom:stack', Value: services().config.SES_IDENTITY_OWNER }, { Key: 'mailroom:project', Value: cloud.seed.project_id }] })),
    );
    const res = await register(domain);
    expect(res.status).toBe(201);
    expect(res.body.dkim_tokens).toEqual(created.DkimAttributes?.Tokens);
    expect((await identityOf(domain)).MailFromAttributes?.MailFromDomain).toBe(`send.${domain}`);
  });

  test("a project cannot recreate (delete) the identity another project's registration created; it reuses it read-only", async () => {
    const [first, second] = [await newProject('Creator'), await newProject('Latecomer')];
    const domain = fresh('fail.');
    const a = await register(domain, first);
    expect(a.status).toBe(201);
    expect((await register(domain, second)).status).toBe(201);
    const res = await cloud.api('POST', `/domains/${domain}/recreate`, { key: second });
    expect(res.status).toBe(409);
    expect(res.body).toEqual({ error: `Domain ${domain} has a sending identity created for another project; it cannot be changed from this one` });
    expect((await identityOf(domain)).DkimAttributes?.Tokens).toEqual(a.body.dkim_tokens);
    // Its creator still can.
    expect((await cloud.api('POST', `/domains/${domain}/recreate`, { key: first })).status).toBe(200);
  });

  test("this deployment's tag value is its table's name, from the stack's policy: a redeploy (another table) is another deployment", async () => {
    expect(services().config.SES_IDENTITY_OWNER).toBe(services().config.TABLE_NAME);
    expect(identityOwnerFor('mailroom-after-a-redeploy')).toBe('mailroom-after-a-redeploy');
  });

  test('the identities this service creates carry its deployment and project tags', async () => {
    const domain = fresh();
    await register(domain);
    const tags = Object.fromEntries(((await identityOf(domain)).Tags ?? []).map((t) => [t.Key, t.Value]));
    expect(tags).toEqual({ 'mailroom:stack': services().config.SES_IDENTITY_OWNER, 'mailroom:project': cloud.seed.project_id });
  });
});

/** The newest link matching `pattern` in the mails to `email`. */
async function linkMailedTo(email: string, pattern: RegExp): Promise<{ link?: string }> {
  const mails = (await cloud.outbox()).filter((m) => m.destination.to.join().includes(email) && pattern.test(m.body.text ?? ''));
  return { link: pattern.exec(mails.at(-1)?.body.text ?? '')?.[0] };
}
const SES_LINK = /http:\/\/localhost:\d+\/confirm-identity\?token=[0-9a-f]+/;
const OWN_LINK = /http:\/\/localhost:\d+\/senders\/confirm\/[A-Za-z0-9_-]{32}/g;

/** Runs the scheduled check as it would run a few minutes from now. */
async function recheckLater() {
  overrideServices({ clock: { now: () => new Date(Date.now() + 3 * 60_000) } });
  try {
    await recheck();
  } finally {
    overrideServices({ clock: realClock });
  }
}

/** Every confirmation link of this service mailed to `email` so far, oldest first. */
async function ownLinksMailedTo(email: string): Promise<string[]> {
  const mails = (await cloud.outbox()).filter((m) => m.destination.to.join().includes(email));
  return mails.flatMap((m) => (m.body.text ?? '').match(OWN_LINK) ?? []);
}

describe('Senders verified by mail (POST /domains/verify-email)', () => {
  test("the owner confirms SES's link, then this project's own link: sender.verified once, and mail can go out unauthenticated", async () => {
    await drainEvents(cloud);
    const email = `owner.${Date.now()}@gmail-like.example.net`;
    const res = await cloud.api('POST', '/domains/verify-email', { body: { email, name: 'Owner' } });
    expect(res.status).toBe(201);
    expect(res.body.sender).toMatchObject({ from_email: email, sender_source: 'magic_link', domain_authenticated: false, email_verified: false, can_send: false });
    expect(String(res.body.warning)).toMatch(/DKIM/);

    const blocked = await cloud.api('POST', '/v1/send-email', { body: sendBody(cloud, { sender_email: email }) });
    expect((await cloud.waitForActivity(blocked.body.email_id as string, cloud.seed.live_key, (a) => a.current_status !== 'queued')).error_code).toBe(
      'sender_not_verified',
    );

    const ses = await linkMailedTo(email, SES_LINK);
    expect(ses.link).toBeDefined();
    expect((await fetch(ses.link as string)).status).toBe(200);

    // SES now has the address; that alone verifies nothing for the project.
    await recheckLater();
    expect((await drainEvents(cloud)).filter((e) => e.data?.sender_email === email)).toEqual([]);
    const [own] = await ownLinksMailedTo(email);
    expect(own).toBeDefined();
    const page = await fetch(own);
    expect(page.status).toBe(200);
    expect(await page.text()).toContain('<form method="post">');
    expect((await fetch(own, { method: 'POST' })).status).toBe(200);
    expect((await fetch(own, { method: 'POST' })).status).toBe(200);

    const events = (await drainEvents(cloud)).filter((e) => e.data?.sender_email === email);
    expect(events.map((e) => e.event)).toEqual(['sender.verified']);
    expect(events[0].data).toMatchObject({ sender_email: email, can_send: true });

    const sent = await cloud.api('POST', '/v1/send-email', { body: sendBody(cloud, { sender_email: email }) });
    expect((await cloud.waitForActivity(sent.body.email_id as string, cloud.seed.live_key, (a) => !['queued', 'sent'].includes(a.current_status as string))).current_status).toBe('delivered');
  });

  test('an unknown or malformed confirmation link is a 404 page', async () => {
    expect((await fetch(`${cloud.baseUrl}/senders/confirm/${'A'.repeat(32)}`)).status).toBe(404);
    expect((await fetch(`${cloud.baseUrl}/senders/confirm/short`, { method: 'POST' })).status).toBe(404);
  });

  test('a mailbox that fails verification gives sender.failed once', async () => {
    await drainEvents(cloud);
    const email = `fail.${Date.now()}@example.net`;
    await cloud.api('POST', '/domains/verify-email', { body: { email } });
    overrideServices({ clock: { now: () => new Date(Date.now() + 3 * 60_000) } });
    await recheck();
    await recheck();
    expect((await drainEvents(cloud)).filter((e) => e.data?.sender_email === email).map((e) => e.event)).toEqual(['sender.failed']);
  });

  test('an invalid address is a 400', async () => {
    expect((await cloud.api('POST', '/domains/verify-email', { body: { email: 'nope' } })).status).toBe(400);
    expect((await cloud.api('POST', '/domains/verify-email', { body: {} })).status).toBe(400);
  });
});

describe('Ownership of a mailbox sender: a project needs its own confirmation (docs/decisions.md)', () => {
  const newProject = async (name: string) => {
    const { db, clock } = services();
    return (await createProject(db, clock, { organizationId: cloud.seed.organization_id, name })).liveKey;
  };
  /** The final status of a mail sent as `email` by the project of `key` (delivered, or failed with its code). */
  const sendAs = async (email: string, key: string) => {
    const res = await cloud.api('POST', '/v1/send-email', { key, body: sendBody(cloud, { sender_email: email }) });
    const done = await cloud.waitForActivity(res.body.email_id as string, key, (a) => !['queued', 'sent', 'retrying'].includes(a.current_status as string));
    return done.current_status === 'failed' ? `failed:${done.error_code}` : (done.current_status as string);
  };
  /** The own confirmation link mailed to `email` on behalf of the project called `name`. */
  const ownLinkFor = async (email: string, name: string) => {
    const mail = (await cloud.outbox()).filter((m) => m.destination.to.join().includes(email) && m.subject.includes(`"${name}"`)).at(-1);
    return (mail?.body.text ?? '').match(OWN_LINK)?.[0];
  };

  test("an address another project confirmed is not verified for a newcomer by SES's word: it waits for its own link", async () => {
    const email = `ceo.${Date.now()}@bigcorp.example`;
    const [victim, attacker] = [await newProject('Victim'), await newProject('Attacker')];
    await cloud.api('POST', '/domains/verify-email', { key: victim, body: { email } });
    await fetch((await linkMailedTo(email, SES_LINK)).link as string);
    await recheckLater();
    expect((await fetch(await ownLinkFor(email, 'Victim') as string, { method: 'POST' })).status).toBe(200);
    expect(await sendAs(email, victim)).toBe('delivered');

    const asked = await cloud.api('POST', '/domains/verify-email', { key: attacker, body: { email } });
    expect(asked.status).toBe(201);
    expect(asked.body.sender).toMatchObject({ email_verified: false, can_send: false });
    await recheckLater();
    await recheckLater();
    expect(await sendAs(email, attacker)).toBe('failed:sender_not_verified');
    // The mailbox got the attacker's own link, naming the project that asks; nobody followed it.
    expect(await ownLinkFor(email, 'Attacker')).toBeDefined();
    expect(await sendAs(email, victim)).toBe('delivered');
  });

  test.each([
    ['the first project to ask', 0],
    ['the second project to ask', 1],
  ])("the owner follows only %s's link: that project alone may send as the address; the other's request stays intact", async (_name, chosen) => {
    const email = `both.${Date.now()}.${chosen}@mailbox.example`;
    const names = [`Asker ${chosen} A`, `Asker ${chosen} B`];
    const keys = [await newProject(names[0]), await newProject(names[1])];
    for (const key of keys) expect((await cloud.api('POST', '/domains/verify-email', { key, body: { email } })).status).toBe(201);
    await fetch((await linkMailedTo(email, SES_LINK)).link as string);
    await recheckLater();
    const links = [await ownLinkFor(email, names[0]), await ownLinkFor(email, names[1])];
    expect(links.every(Boolean)).toBe(true);
    expect(links[0]).not.toBe(links[1]);

    expect((await fetch(links[chosen] as string, { method: 'POST' })).status).toBe(200);
    expect(await sendAs(email, keys[chosen])).toBe('delivered');
    expect(await sendAs(email, keys[1 - chosen])).toBe('failed:sender_not_verified');
    // The other project's request is untouched: its link still opens its confirmation page.
    expect((await fetch(links[1 - chosen] as string)).status).toBe(200);
  });
});

describe('Reply and tracking domains', () => {
  test('POST /domains/reply adds an MX on reply.<domain>, shown on the identity, never overwritten', async () => {
    const domain = fresh();
    await register(domain);
    const res = await cloud.api('POST', '/domains/reply', { body: { domain } });
    expect(res.status).toBe(201);
    expect(res.body.reply_domain).toMatchObject({
      domain: `reply.${domain}`,
      status: 'pending',
      records: [expect.objectContaining({ record_type: 'MX', name: 'reply', value: 'inbound-smtp.us-east-1.amazonaws.com', priority: 10 })],
    });
    const again = await cloud.api('POST', '/domains/reply', { body: { domain } });
    expect(again.status).toBe(200);
    expect(again.body.existing).toBe(true);
    const verify = await cloud.api('POST', `/domains/${domain}/verify`);
    expect(verify.body.reply_domain).toMatchObject({ domain: `reply.${domain}` });
    expect(verify.body.tracking_domain).toBeNull();
  });

  test('POST /domains/tracking adds a CNAME on track.<domain>', async () => {
    const domain = fresh();
    await register(domain);
    const res = await cloud.api('POST', '/domains/tracking', { body: { domain } });
    expect(res.status).toBe(201);
    expect(res.body.tracking_domain).toMatchObject({
      domain: `track.${domain}`,
      https: 'pending',
      // The local cloud serves tracking on localhost, so that is the host the CNAME names.
      records: [expect.objectContaining({ record_type: 'CNAME', name: 'track', value: 'localhost' })],
    });
  });

  test('a reply domain for a domain the project has not registered is a 400', async () => {
    expect((await cloud.api('POST', '/domains/reply', { body: { domain: 'nowhere.example.org' } })).status).toBe(400);
  });
});

describe('tracking domains and their HTTPS (docs/decisions.md, "Tracking domains and TLS")', () => {
  /** Marks the tracking CNAME verified, as the DNS sweep does once DNS answers with the tracking host. */
  async function cnameVerified(domain: string) {
    const sub = (await getSubdomain(services().db, 'tracking', cloud.seed.project_id, domain, true))!;
    await putSubdomain(services().db, { ...sub, status: 'verified', records: sub.records.map((r) => ({ ...r, status: 'verified' as const })) });
  }
  const httpsOf = async (domain: string) => (await cloud.api('POST', `/domains/${domain}/verify`)).body.tracking_domain;
  const minutesLater = (minutes: number) => overrideServices({ clock: { now: () => new Date(realClock.now().getTime() + minutes * 60_000) } });

  test('without a tracking host, registering a tracking domain is a 409 that says so, and reply domains still work', async () => {
    const domain = fresh();
    await register(domain);
    const configured = services().config;
    overrideServices({ config: { ...configured, TRACKING_HOST: undefined } });
    try {
      const res = await cloud.api('POST', '/domains/tracking', { body: { domain } });
      expect(res.status).toBe(409);
      expect(res.body).toEqual({ error: TRACKING_NOT_CONFIGURED });
      expect((await cloud.api('POST', '/domains/reply', { body: { domain } })).status).toBe(201);
    } finally {
      overrideServices({ config: configured });
    }
  });

  test('the re-check puts a verified tracking domain on the edge; it is served over HTTPS once the certificate is issued', async () => {
    const domain = fresh();
    await register(domain);
    await cloud.api('POST', '/domains/tracking', { body: { domain } });
    await recheck();
    expect(await httpsOf(domain)).toMatchObject({ status: 'pending', https: 'pending' });

    await cnameVerified(domain);
    await recheck();
    expect(await httpsOf(domain)).toMatchObject({ status: 'verified', https: 'provisioning', https_detail: expect.stringContaining('pending-validation') });

    minutesLater(3);
    await recheck();
    expect(await httpsOf(domain)).toMatchObject({ status: 'verified', https: 'active' });
    // Settled: later runs leave it alone.
    minutesLater(60);
    await recheck();
    expect((await getSubdomain(services().db, 'tracking', cloud.seed.project_id, domain, true))?.tls).toMatchObject({ status: 'active', next_check_at: null });
  });

  test('a certificate that cannot be validated is reported as failed and not retried', async () => {
    const domain = fresh('fail.');
    await register(domain);
    await cloud.api('POST', '/domains/tracking', { body: { domain } });
    await cnameVerified(domain);
    await recheck();
    minutesLater(3);
    await recheck();
    expect(await httpsOf(domain)).toMatchObject({ https: 'failed', https_detail: 'certificate validation-timed-out' });
  });
});

describe('GET /domains/health', () => {
  test('reports status, sends and the permanent-bounce rate per domain, with actionable issues', async () => {
    const { db, clock } = services();
    const created = await createProject(db, clock, { organizationId: cloud.seed.organization_id, name: 'Health' });
    const key = created.liveKey;
    const good = fresh();
    const bouncy = fresh();
    const stuck = fresh('fail.');
    for (const d of [good, bouncy, stuck]) await registerAndPublish(d, key);
    for (const d of [good, bouncy, stuck]) await cloud.api('POST', `/domains/${d}/verify`, { key });
    const counts = new CounterBatch();
    const today = dayOf(new Date());
    counts.add(created.project.id, good, today, 'sent', 1000);
    counts.add(created.project.id, good, today, 'hard_bounced', 5);
    counts.add(created.project.id, bouncy, today, 'sent', 200);
    counts.add(created.project.id, bouncy, today, 'hard_bounced', 12);
    await counts.flush(db);

    const res = await cloud.api('GET', '/domains/health', { key });
    expect(res.status).toBe(200);
    const rows = Object.fromEntries((res.body.data as any[]).map((r) => [r.domain, r]));
    expect(rows[good]).toMatchObject({ can_send: true, sent: 1000, hard_bounce_rate: 0.5, status: 'warning' });
    expect(rows[good].issues.join(' ')).toMatch(/DMARC/);
    expect(rows[bouncy]).toMatchObject({ sent: 200, hard_bounce_rate: 6, status: 'critical' });
    expect(rows[bouncy].issues.join(' ')).toMatch(/Permanent-bounce rate is 6%/);
    expect(rows[stuck]).toMatchObject({ can_send: false, status: 'critical' });
    expect(rows[stuck].issues[0]).toMatch(/Verification failed/);
    expect(res.body.summary).toEqual({ total: 3, healthy: 0, warning: 1, critical: 2 });
  });
});

describe('The local cloud keeps SES identities across restarts', () => {
  test('the emulator state is written under the data folder', () => {
    expect(fs.existsSync(`${cloud.outboxDir}/../ses-identities.json`)).toBe(true);
  });
});

void PurgeQueueCommand;

describe('GET /domains (the project\'s sending domains, newest first)', () => {
  /** A project of its own, so that its list holds only what the test registers. */
  const ownProject = async () => {
    const created = await createProject(services().db, services().clock, { organizationId: 'org-domain-list', name: 'Domain list' });
    return { id: created.project.id, live: created.liveKey, test: created.testKey };
  };
  /** Registers domains one after another, a few milliseconds apart, so that their `created_at` differ. */
  const registerInOrder = async (key: string, count: number) => {
    const names: string[] = [];
    for (let i = 0; i < count; i++) {
      const domain = fresh('l');
      expect((await register(domain, key)).status).toBe(201);
      names.push(domain);
      await new Promise((r) => setTimeout(r, 5));
    }
    return names;
  };
  const list = (key: string, query = '') => cloud.api('GET', `/domains${query}`, { key });

  test('newest first, each with its verification status, the SES identity\'s state, its reply and tracking domains in short and created_at', async () => {
    const p = await ownProject();
    const [a, b, c] = await registerInOrder(p.live, 3);
    await cloud.publishDns(b, p.live);
    expect((await cloud.api('POST', `/domains/${b}/verify`, { key: p.live })).body.verification_status).toBe('verified');
    await cloud.api('POST', '/domains/reply', { key: p.live, body: { domain: c } });
    await cloud.api('POST', '/domains/tracking', { key: p.live, body: { domain: c } });

    const res = await list(p.live);
    expect(res.status).toBe(200);
    const data = res.body.data as Record<string, any>[];
    expect(data.map((d) => d.domain)).toEqual([c, b, a]);
    expect(data[0]).toMatchObject({
      verification_status: 'pending',
      can_send: false,
      send_ready: false,
      details: null,
      reply_domain: { domain: `reply.${c}`, status: 'pending' },
      tracking_domain: { domain: `track.${c}`, status: 'pending', https: 'pending' },
      last_checked_at: null,
    });
    expect(data[1]).toMatchObject({
      verification_status: 'verified',
      can_send: true,
      send_ready: true,
      details: { domain_verification: 'SUCCESS', dkim_verification: 'SUCCESS', mail_from_status: 'SUCCESS' },
      reply_domain: null,
      tracking_domain: null,
    });
    expect(typeof data[1].last_checked_at).toBe('string');
    expect(data[2]).toMatchObject({ domain: a, verification_status: 'pending', reply_domain: null, tracking_domain: null });
    expect(data.every((d) => /^\d{4}-\d\d-\d\dT/.test(d.created_at) && /^[0-9a-f-]{36}$/.test(d.identity_id))).toBe(true);
    expect(data[0].created_at > data[1].created_at && data[1].created_at > data[2].created_at).toBe(true);
    // A list shows state, not the records to publish (GET /domains/{domain}/dns-records does).
    expect(data[0]).not.toHaveProperty('dns_records');
    expect(res.body.pagination).toEqual({ page: 1, per_page: 50, total: 3, total_pages: 1, total_is_estimate: false, next_cursor: null });
  });

  test('pages by page and per_page, and reads on by cursor to the same entries', async () => {
    const p = await ownProject();
    const [a, b, c, d, e] = await registerInOrder(p.live, 5);
    const first = await list(p.live, '?per_page=2');
    expect((first.body.data as any[]).map((x) => x.domain)).toEqual([e, d]);
    expect(first.body.pagination).toMatchObject({ page: 1, per_page: 2, total: 5, total_pages: 3, total_is_estimate: false });
    const cursor = (first.body.pagination as any).next_cursor as string;
    expect(typeof cursor).toBe('string');

    const second = await list(p.live, '?page=2&per_page=2');
    expect((second.body.data as any[]).map((x) => x.domain)).toEqual([c, b]);
    const byCursor = await list(p.live, `?per_page=2&cursor=${encodeURIComponent(cursor)}`);
    expect((byCursor.body.data as any[]).map((x) => x.domain)).toEqual([c, b]);

    const last = await list(p.live, '?page=3&per_page=2');
    expect((last.body.data as any[]).map((x) => x.domain)).toEqual([a]);
    expect((last.body.pagination as any).next_cursor).toBeNull();
  });

  test('a project sees only its own domains; one without any gets an empty page; the test key reads the same list', async () => {
    const [p, q] = [await ownProject(), await ownProject()];
    const [mine] = await registerInOrder(p.live, 1);
    const empty = await list(q.live);
    expect(empty.body).toEqual({ success: true, data: [], pagination: { page: 1, per_page: 50, total: 0, total_pages: 0, total_is_estimate: false, next_cursor: null } });
    const live = await list(p.live);
    expect((live.body.data as any[]).map((x) => x.domain)).toEqual([mine]);
    expect((await list(p.test)).body).toEqual(live.body);
  });

  test('domains registered before the list existed get their entry on the first list, once', async () => {
    const { UpdateCommand, DeleteCommand, GetCommand } = await import('@aws-sdk/lib-dynamodb');
    const { domainKey, domainsIndexedKey } = await import('../../shared/platform/store/keys');
    const { db } = services();
    const p = await ownProject();
    const [old] = await registerInOrder(p.live, 1);
    // As a domain written before this release: no list-index attributes, and no marker.
    await db.doc.send(new UpdateCommand({ TableName: db.tableName, Key: domainKey(p.id, old), UpdateExpression: 'REMOVE gsi4pk, gsi4sk' }));
    await db.doc.send(new DeleteCommand({ TableName: db.tableName, Key: domainsIndexedKey(p.id) }));

    const res = await list(p.live);
    expect((res.body.data as any[]).map((x) => x.domain)).toEqual([old]);
    const item = (await db.doc.send(new GetCommand({ TableName: db.tableName, Key: domainKey(p.id, old), ConsistentRead: true }))).Item!;
    expect(item.gsi4sk).toBe(`${item.created_at}#${old}`);
    expect((await db.doc.send(new GetCommand({ TableName: db.tableName, Key: domainsIndexedKey(p.id), ConsistentRead: true }))).Item).toBeDefined();
  });

  test.each([
    ['?per_page=500', 'per_page must be between 1 and 200'],
    ['?page=0', 'page must be a positive integer'],
    ['?page=2&cursor=abc', 'Pass either page or cursor, not both'],
    ['?page=21&per_page=50', 'page * per_page may not exceed 1000; pass the previous page\'s next_cursor as cursor to read on'],
    ['?cursor=not-a-cursor', 'cursor is not valid for this list'],
  ])('%s is refused with 400', async (query, message) => {
    const res = await list(cloud.seed.live_key, query);
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ error: message });
  });

  test('a cursor of another project\'s list is refused', async () => {
    const [p, q] = [await ownProject(), await ownProject()];
    await registerInOrder(p.live, 2);
    const cursor = ((await list(p.live, '?per_page=1')).body.pagination as any).next_cursor as string;
    const res = await list(q.live, `?per_page=1&cursor=${encodeURIComponent(cursor)}`);
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ error: 'cursor is not valid for this list' });
  });
});

describe('GET /domains/senders (the project\'s senders, for a campaign\'s sender profile)', () => {
  test('lists each sender with its id, address and whether it can send; another project\'s are not there', async () => {
    const { db, clock } = services();
    const own = await createProject(db, clock, { organizationId: 'org-sender-list', name: 'Sender list' });
    const other = await createProject(db, clock, { organizationId: 'org-sender-list', name: 'Other senders' });
    const verified = fresh();
    const pending = fresh();
    const reg = await registerAndPublish(verified, own.liveKey);
    await cloud.api('POST', `/domains/${verified}/verify`, { key: own.liveKey });
    await register(pending, own.liveKey);
    await register(fresh(), other.liveKey);

    const res = await cloud.api('GET', '/domains/senders', { key: own.liveKey });
    expect(res.status).toBe(200);
    const rows = Object.fromEntries((res.body.data as any[]).map((s) => [s.from_email, [s.can_send, s.domain_authenticated]]));
    expect(rows).toEqual({ [`hello@${pending}`]: [false, false], [`hello@${verified}`]: [true, true] });
    const sender = (res.body.data as any[]).find((s) => s.from_email === `hello@${verified}`);
    expect(sender.id).toBe((reg.body as Record<string, unknown>).sender_profile_id);
  });
});
