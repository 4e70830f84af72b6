import { randomUUID } from 'node:crypto';
import { PutCommand } from '@aws-sdk/lib-dynamodb';
import { upsertLeads } from '../../shared/audience/leads/lead-upsert';
import type { Campaign } from '../../shared/marketing/campaigns/campaign';
import { campaignIdsObjectKey } from '../../shared/marketing/campaigns/audience-cursor';
import { enqueueCampaignMessage } from '../../shared/marketing/campaigns/engine-messages';
import { getCampaign } from '../../shared/marketing/campaigns/campaign-gateway';
import { refreshConfig } from '../../shared/platform/core/config';
import { services } from '../../composition/services';
import { listSenders } from '../../shared/identities/domains/sender-repository';
import { campaignKey, campaignListIndex } from '../../shared/platform/store/keys';
import { createTemplate } from '../../shared/mail-pipeline/templates/template-service';
import { CreateEmailIdentityCommand, SESv2Client } from '@aws-sdk/client-sesv2';
import { IDENTITY_TAGS } from '../../shared/platform/core/ports';
import { checkCall, enforcedPolicies, enforcePolicies, runAs, takeDenials } from '../../local/iam/enforce';
import type { PolicyStatement } from '../../local/iam/evaluate';
import type { PolicyMap } from '../../local/iam/policy-map-format';
import { CLOUD_TIMEOUT_MS, sendBody, startTestCloud, type TestCloud } from './support/test-cloud';

/**
 * The local cloud enforces the stack's IAM policies (docs/local-iam.md). For each kind of grant the
 * stack gives, removing the grant a tested path needs (an override of the policy map, never of
 * lib/) turns that path into AccessDenied; the same path passes with the stack's own policies.
 */
let cloud: TestCloud;
let stack: PolicyMap;

beforeAll(async () => {
  cloud = await startTestCloud();
  refreshConfig({ CAMPAIGN_SEND_RATE: '2000' });
  stack = enforcedPolicies()!;
}, CLOUD_TIMEOUT_MS);
afterAll(() => cloud?.stop());
beforeEach(() => void takeDenials());
afterEach(() => enforcePolicies(stack));

type Data = Record<string, any>;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const list = (v: PolicyStatement['Action']) => (v === undefined ? [] : typeof v === 'string' ? [v] : [...v]);

/** The policy map with `role`'s actions matching `actions` removed (statements left empty go). */
function withoutActions(map: PolicyMap, role: string, actions: RegExp): PolicyMap {
  let removed = 0;
  const statements = map.roles[role].flatMap((s) => {
    const kept = list(s.Action).filter((a) => !actions.test(a));
    removed += list(s.Action).length - kept.length;
    return kept.length > 0 ? [{ ...s, Action: kept }] : [];
  });
  // A pattern that removes nothing would make the test prove nothing.
  expect([role, removed > 0]).toEqual([role, true]);
  return { ...map, roles: { ...map.roles, [role]: statements } };
}

/** The policy map with the Allow statements of resource policies for `principal` removed. */
function withoutServiceAllow(map: PolicyMap, service: string): PolicyMap {
  const names = (s: PolicyStatement) => (typeof s.Principal === 'object' ? list(s.Principal.Service) : []);
  const resourcePolicies = map.resourcePolicies.map((p) => ({ ...p, statements: p.statements.filter((s) => !(s.Effect === 'Allow' && names(s).includes(service))) }));
  const count = (m: PolicyMap) => m.resourcePolicies.reduce((n, p) => n + p.statements.length, 0);
  expect([service, count(map) - count({ ...map, resourcePolicies })]).not.toEqual([service, 0]);
  return { ...map, resourcePolicies };
}

/** Runs `work` with the stack's policies changed by `change`. */
async function under<T>(change: (map: PolicyMap) => PolicyMap, work: () => Promise<T>): Promise<T> {
  enforcePolicies(change(stack));
  try {
    return await work();
  } finally {
    enforcePolicies(stack);
  }
}

const denials = (pattern: RegExp) => takeDenials().filter((d) => pattern.test(d));

async function waitFor<T>(read: () => Promise<T>, done: (value: T) => boolean, timeoutMs = 20_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await read();
    if (done(value) || Date.now() > deadline) return value;
    await sleep(200);
  }
}
const activity = (id: string) => waitFor(async () => (await cloud.api('GET', `/v1/activity/${id}`)).body.data as Data | undefined, (a) => !!a && a.current_status !== 'queued');

describe('table grants (grantReadWriteData)', () => {
  const templateBody = () => ({ name: `t-${randomUUID()}`, html: '<p>Hi</p>' });
  test('a group that may not write the table answers 500 with AccessDenied on dynamodb:PutItem; with the stack\'s grant, 201', async () => {
    const refused = await under((m) => withoutActions(m, 'templates', /^dynamodb:(PutItem|UpdateItem|DeleteItem|BatchWriteItem|ConditionCheckItem)$/), () => cloud.api('POST', '/v1/templates', { body: templateBody() }));
    expect(refused.status).toBe(500);
    expect(denials(/templates is not authorized to perform: dynamodb:(PutItem|ConditionCheckItem|UpdateItem)/)).not.toHaveLength(0);
    expect((await cloud.api('POST', '/v1/templates', { body: templateBody() })).status).toBe(201);
  });
});

describe('queue grants (grantSendMessages)', () => {
  test('the send group without sqs:SendMessage on the send queue cannot queue a mail', async () => {
    const refused = await under((m) => withoutActions(m, 'send', /^sqs:SendMessage$/), () => cloud.api('POST', '/v1/send-email', { body: sendBody(cloud) }));
    expect(refused.status).toBeGreaterThanOrEqual(500);
    expect(denials(/assumed-role\/send\/send is not authorized to perform: sqs:SendMessage on resource: arn:aws:sqs:.*-send /)).not.toHaveLength(0);
    expect((await cloud.api('POST', '/v1/send-email', { body: sendBody(cloud) })).status).toBe(200);
  });
});

describe('payload bucket grants (grantPut, grantRead)', () => {
  test('lead-imports without s3:PutObject cannot presign the upload URL', async () => {
    const refused = await under((m) => withoutActions(m, 'lead-imports', /^s3:PutObject$/), () => cloud.api('POST', '/v1/leads/imports', { body: { format: 'jsonl' } }));
    expect(refused.status).toBe(500);
    expect(denials(/lead-imports is not authorized to perform: s3:PutObject on resource: arn:aws:s3:::mailroom-payloads\/imports\//)).not.toHaveLength(0);
  });

  test('lead imports by upload URL: with the old grant (put only) start is a 500; with s3:GetObject but no s3:ListBucket a missing upload is still a 500 (S3 answers 403); with the stack\'s grant, 409 then 202', async () => {
    const create = async () => {
      const created = await cloud.api('POST', '/v1/leads/imports', { body: { format: 'jsonl' } });
      expect(created.status).toBe(201);
      return { id: (created.body.import as Data).id as string, url: (created.body.upload as Data).url as string };
    };
    const putOnly = (m: PolicyMap) => withoutActions(m, 'lead-imports', /^s3:(GetObject\*|GetBucket\*|List\*)$/);
    const first = await create();
    expect((await under(putOnly, () => cloud.api('POST', `/v1/leads/imports/${first.id}/start`))).status).toBe(500);
    expect(denials(/lead-imports is not authorized to perform: s3:GetObject/)).not.toHaveLength(0);

    const noList = (m: PolicyMap) => withoutActions(m, 'lead-imports', /^s3:List\*$/);
    expect((await under(noList, () => cloud.api('POST', `/v1/leads/imports/${first.id}/start`))).status).toBe(500);
    expect(denials(/s3:ListBucket/)).not.toHaveLength(0);

    const early = await cloud.api('POST', `/v1/leads/imports/${first.id}/start`);
    expect(early.status).toBe(409);
    expect(early.body.error).toBe('Nothing was uploaded for this import yet: PUT the file to the upload URL first');
    expect((await fetch(first.url, { method: 'PUT', body: `${JSON.stringify({ email: 'iam@example.com' })}\n` })).status).toBe(200);
    expect((await cloud.api('POST', `/v1/leads/imports/${first.id}/start`)).status).toBe(202);
  });

  test('a campaign to recipientIds: with the old engine grant (put only) it never reads ids.json and releases nothing; with the stack\'s grant it completes', async () => {
    const deps = services();
    const templateId = (await createTemplate(deps.db, deps.clock, cloud.seed.project_id, { name: `t-${randomUUID()}`, subject: 'Hi {{name}}', html: '<p>Hi {{name}}</p>' })).id;
    const senderId = (await listSenders(deps.db, cloud.seed.project_id))[0].id;
    const campaignTo = async (tag: string): Promise<Campaign> => {
      const { results } = await upsertLeads(deps.db, deps.clock, cloud.seed.project_id, [0, 1].map((i) => ({ email: `${tag}-${i}@example.com`, data: {}, segmentIds: [] })));
      const ids = results.map((r) => r.id);
      const now = new Date(Date.now() - 1).toISOString();
      const id = randomUUID();
      const campaign = {
        id, project_id: cloud.seed.project_id, mode: 'live', name: `c-${id}`, subject: 'Hello', template_id: templateId, sender_profile_id: senderId,
        status: 'initializing', audience: { kind: 'ids', count: ids.length }, frozen_at: now, total_recipients: ids.length, select_all_recipients: false,
        batch_mode: false, batch_interval_hours: 0, utm_campaign: `utm-${id.slice(0, 8)}`, schedule_type: 'scheduled', created_at: now, updated_at: now,
        step: 0, released: 0, name_lc: `c-${id}`, subject_lc: 'hello',
      } as Campaign;
      await deps.blobs.put(campaignIdsObjectKey(campaign.project_id, id), Buffer.from(JSON.stringify(ids)));
      await deps.db.doc.send(new PutCommand({ TableName: deps.db.tableName, Item: { ...campaignKey(id), ...campaignListIndex(campaign.project_id, now, id), ...campaign } }));
      await enqueueCampaignMessage(deps, { v: 1, kind: 'init', campaign_id: id, project_id: campaign.project_id });
      return campaign;
    };
    const putOnly = (m: PolicyMap) => withoutActions(m, 'campaign-engine', /^s3:(GetObject\*|GetBucket\*|List\*)$/);
    const stuck = await under(putOnly, async () => {
      const campaign = await campaignTo(`iam-old-${randomUUID().slice(0, 8)}`);
      await waitFor(async () => denials(/campaign-engine is not authorized to perform: s3:GetObject on resource: .*ids\.json/).length, (n) => n > 0, 15_000);
      return getCampaign(deps.db, campaign.id, true);
    });
    expect(stuck?.status).not.toBe('completed');
    expect(stuck?.released ?? 0).toBe(0);

    const campaign = await campaignTo(`iam-new-${randomUUID().slice(0, 8)}`);
    // Generous: on a loaded 2-core machine the campaign's settle checks (every 10 s) can take a minute.
    const done = await waitFor(() => getCampaign(deps.db, campaign.id, true), (c) => c?.status === 'completed', 120_000);
    expect(done).toMatchObject({ status: 'completed', emails_sent: 2 });
  }, 180_000);
});

describe('SES grants (grantSend, grantManageIdentities)', () => {
  test('a send worker without ses:SendEmail fails the mail (SES answers 403) and sends nothing', async () => {
    const res = await under(
      (m) => withoutActions(m, 'send-worker', /^ses:SendEmail$/),
      async () => {
        const sent = await cloud.api('POST', '/v1/send-email', { body: sendBody(cloud, { recipient_email: `iam-${randomUUID()}@example.com` }) });
        return { id: sent.body.email_id as string, final: await activity(sent.body.email_id as string) };
      },
    );
    expect(res.final?.current_status).toBe('failed');
    expect(denials(/send-worker is not authorized to perform: ses:SendEmail on resource: arn:aws:ses:us-east-1:000000000000:identity\//)).not.toHaveLength(0);
    expect((await activity((await cloud.api('POST', '/v1/send-email', { body: sendBody(cloud) })).body.email_id as string))?.current_status).toMatch(/sent|delivered/);
  });

  test('the domains group without ses:CreateEmailIdentity cannot register a domain', async () => {
    const domain = `iam-${randomUUID().slice(0, 8)}.example.org`;
    const refused = await under(
      (m) => withoutActions(m, 'domains', /^ses:CreateEmailIdentity$/),
      () => cloud.api('POST', '/domains/register', { body: { domain, sender_name: 'Acme', sender_email: `news@${domain}` } }),
    );
    expect(refused.status).toBeGreaterThanOrEqual(500);
    expect(denials(/domains is not authorized to perform: ses:CreateEmailIdentity on resource: .*identity\/iam-/)).not.toHaveLength(0);
    expect((await cloud.api('POST', '/domains/register', { body: { domain, sender_name: 'Acme', sender_email: `news@${domain}` } })).status).toBe(201);
  });

  test("identities: created only with this deployment's tag, changed or deleted only when they carry it (aws:RequestTag, aws:TagKeys, aws:ResourceTag)", async () => {
    const ours = [
      { Key: IDENTITY_TAGS.deployment, Value: services().config.SES_IDENTITY_OWNER },
      { Key: IDENTITY_TAGS.project, Value: 'p1' },
    ];
    const create = (name: string, Tags: { Key: string; Value: string }[]) => () =>
      runAs('domains', () => checkCall('SESv2Client', 'CreateEmailIdentityCommand', { EmailIdentity: name, Tags }));
    expect(create('ours.example.org', ours)).not.toThrow();
    expect(create('theirs.example.org', [{ Key: IDENTITY_TAGS.deployment, Value: 'another-stack' }])).toThrow(/not authorized to perform: ses:CreateEmailIdentity/);
    expect(create('untagged.example.org', [])).toThrow(/ses:CreateEmailIdentity/);
    expect(create('extra.example.org', [...ours, { Key: 'owner', Value: 'x' }])).toThrow(/ses:CreateEmailIdentity/);

    // One identity made by this deployment (through the API), one by another application (by hand, unchecked).
    const domain = `tags-${randomUUID().slice(0, 8)}.example.org`;
    expect((await cloud.api('POST', '/domains/register', { body: { domain, sender_name: 'Acme', sender_email: `news@${domain}` } })).status).toBe(201);
    const foreign = `foreign-${randomUUID().slice(0, 8)}.example.org`;
    const ses = new SESv2Client({});
    await ses.send(new CreateEmailIdentityCommand({ EmailIdentity: foreign, Tags: [{ Key: IDENTITY_TAGS.deployment, Value: 'another-stack' }] }));
    ses.destroy();
    for (const command of ['DeleteEmailIdentityCommand', 'PutEmailIdentityMailFromAttributesCommand']) {
      const change = (name: string) => () => runAs('domains', () => checkCall('SESv2Client', command, { EmailIdentity: name }));
      expect(change(domain)).not.toThrow();
      expect(change(foreign)).toThrow(/not authorized to perform: ses:(DeleteEmailIdentity|PutEmailIdentityMailFromAttributes) on resource: .*identity\/foreign-/);
    }
  });
});

describe('campaign timer grants (scheduler:CreateSchedule, iam:PassRole, the timer role\'s SendMessage)', () => {
  const fire = (name: string) => runAs('campaign-engine', () => services().timers.fireAt(name, new Date(), 'campaigns', { v: 1, kind: 'noop' }));
  test('the engine cannot set a timer without iam:PassRole on the timer role', async () => {
    await expect(under((m) => withoutActions(m, 'campaign-engine', /^iam:PassRole$/), () => fire(`t-${randomUUID()}`))).rejects.toMatchObject({ name: 'AccessDeniedException', $metadata: { httpStatusCode: 403 } });
    expect(denials(/campaign-engine is not authorized to perform: iam:PassRole/)).not.toHaveLength(0);
    await expect(fire(`t-${randomUUID()}`)).resolves.toBeUndefined();
  });
  test('a timer whose role may not send to the campaigns queue never fires', async () => {
    await under(
      (m) => withoutActions(m, 'campaignTimerRole', /^sqs:SendMessage$/),
      async () => {
        await fire(`t-${randomUUID()}`);
        expect(await waitFor(async () => denials(/campaignTimerRole is not authorized to perform: sqs:SendMessage on resource: .*-campaigns/).length, (n) => n > 0, 5_000)).toBeGreaterThan(0);
      },
    );
  });
});

describe('resource policies (the SES events topic and queue, the inbound bucket)', () => {
  test('without the queue policy\'s Allow for the SES events topic, SES events never reach the queue: the mail stays sent', async () => {
    const id = await under(
      (m) => withoutServiceAllow(m, 'sns.amazonaws.com'),
      async () => {
        const sent = await cloud.api('POST', '/v1/send-email', { body: sendBody(cloud, { recipient_email: 'success@simulator.amazonses.com' }) });
        await waitFor(async () => denials(/sns\.amazonaws\.com is not authorized to perform: sqs:SendMessage on resource: .*-ses-events/).length, (n) => n > 0, 10_000);
        return sent.body.email_id as string;
      },
    );
    expect((await activity(id))?.current_status).toBe('sent');
    const delivered = (await cloud.api('POST', '/v1/send-email', { body: sendBody(cloud, { recipient_email: 'success@simulator.amazonses.com' }) })).body.email_id as string;
    expect((await waitFor(() => activity(delivered), (a) => a?.current_status === 'delivered'))?.current_status).toBe('delivered');
  });

  test('without the topic policy\'s Allow for SES, SES cannot publish its events', async () => {
    await under(
      (m) => withoutServiceAllow(m, 'ses.amazonaws.com'),
      async () => {
        await cloud.api('POST', '/v1/send-email', { body: sendBody(cloud) });
        expect(await waitFor(async () => denials(/ses\.amazonaws\.com is not authorized to perform: sns:Publish/).length, (n) => n > 0, 10_000)).toBeGreaterThan(0);
      },
    );
  });

  test('without the inbound bucket policy\'s Allow for SES, or the inbound function\'s s3:GetObject, a reply is not received', async () => {
    const inject = () => fetch(`${cloud.baseUrl}/_local/inbound`, { method: 'POST', headers: { 'content-type': 'message/rfc822' }, body: 'From: a@example.com\r\nTo: x@reply.example.com\r\nSubject: hi\r\n\r\nhello\r\n' });
    expect((await under((m) => withoutServiceAllow(m, 'ses.amazonaws.com'), inject)).status).toBe(500);
    expect(denials(/ses\.amazonaws\.com is not authorized to perform: s3:PutObject on resource: arn:aws:s3:::mailroom-payloads\/inbound\//)).not.toHaveLength(0);
    expect((await under((m) => withoutActions(m, 'inbound', /^s3:GetObject$/), inject)).status).toBe(500);
    expect(denials(/inbound is not authorized to perform: s3:GetObject on resource: .*\/inbound\//)).not.toHaveLength(0);
    expect((await inject()).status).toBe(202);
  });
});
