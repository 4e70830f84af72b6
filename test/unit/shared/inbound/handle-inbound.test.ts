import { DeleteCommand, GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import MailComposer from 'nodemailer/lib/mail-composer';
import { simpleParser } from 'mailparser';
import type { Activity } from '../../../../shared/mail-pipeline/activity/activity';
import type { Config } from '../../../../shared/platform/core/config';
import type { ServiceEvent } from '../../../../shared/platform/core/events';
import { handleInboundObject, type InboundDeps } from '../../../../shared/mail-pipeline/inbound/handle-inbound';
import { MAX_INBOUND_BYTES } from '../../../../shared/mail-pipeline/inbound/inbound-mail';
import type { OutgoingMail } from '../../../../shared/platform/core/ports';
import type { Project } from '../../../../shared/platform/projects/project';
import type { Db } from '../../../../shared/platform/store/client';
import { activityKey, inboundMailKey, projectKey } from '../../../../shared/platform/store/keys';
import { replyAddress } from '../../../../shared/mail-pipeline/reply-token';

const SECRET = 'inbound-secret-123';
const BUCKET = 'inbound-bucket';
const NOW = new Date('2030-01-02T03:04:05.000Z');
const ACTIVITY_ID = '3f2504e0-4f89-11d3-9a0c-0305e82c3301';
const PROJECT_ID = 'p-1';
const REPLY = replyAddress(ACTIVITY_ID, 'reply.example.com', SECRET);

/** A table in memory: Get, conditional Put (attribute_not_exists) and Delete, by pk/sk. */
function memoryDb(items: Record<string, unknown>[]) {
  const table = new Map<string, Record<string, unknown>>();
  const id = (k: { pk: unknown; sk: unknown }) => `${String(k.pk)}|${String(k.sk)}`;
  items.forEach((i) => table.set(id(i as { pk: string; sk: string }), i));
  const db: Db = {
    tableName: 't',
    doc: {
      send: async (command: unknown) => {
        if (command instanceof GetCommand) return { Item: table.get(id(command.input.Key as { pk: string; sk: string })) };
        if (command instanceof PutCommand) {
          const item = command.input.Item as { pk: string; sk: string };
          if (command.input.ConditionExpression === 'attribute_not_exists(pk)' && table.has(id(item))) {
            throw Object.assign(new Error('exists'), { name: 'ConditionalCheckFailedException' });
          }
          table.set(id(item), item);
          return {};
        }
        if (command instanceof DeleteCommand) {
          table.delete(id(command.input.Key as { pk: string; sk: string }));
          return {};
        }
        throw new Error(`unexpected ${(command as object).constructor.name}`);
      },
    } as unknown as Db['doc'],
  };
  return { db, table };
}

function activity(over: Partial<Activity> = {}): Activity {
  return {
    id: ACTIVITY_ID,
    project_id: PROJECT_ID,
    created_at: '2030-01-01T00:00:00.000Z',
    updated_at: '2030-01-01T00:00:00.000Z',
    email_type: 'api',
    subject: 'Hello',
    sender_email: 'news@example.com',
    recipient_primary: 'reader@example.net',
    recipient_count: 1,
    current_status: 'delivered',
    is_test: false,
    message_id: 'ses-1',
    ...over,
  };
}

function project(over: Partial<Project> = {}): Project {
  return { id: PROJECT_ID, organization_id: 'o', name: 'P', slug: 'p', created_at: '', live_key_hash: 'l', test_key_hash: 't', webhook_url: 'https://hooks.example.com/live', ...over };
}

function setup(options: { activity?: Activity | null; project?: Project; objects?: Record<string, Buffer>; publishFails?: number } = {}) {
  const a = options.activity === undefined ? activity() : options.activity;
  const items: Record<string, unknown>[] = [{ ...projectKey(PROJECT_ID), ...(options.project ?? project()) }];
  if (a) items.push({ ...activityKey(a.id), ...a });
  const { db, table } = memoryDb(items);
  const published: ServiceEvent[] = [];
  const sent: OutgoingMail[] = [];
  let failures = options.publishFails ?? 0;
  const objects = { ...options.objects };
  const deps: InboundDeps = {
    db,
    clock: { now: () => NOW },
    config: { INBOUND_DOMAIN: 'reply.example.com', SERVICE_NAME: 'Mailroom' } as Config,
    events: {
      publish: async (e) => {
        if (failures-- > 0) throw new Error('queue down');
        published.push(e);
      },
    },
    mailer: {
      sendRaw: async (m) => {
        sent.push(m);
        return { messageId: `bounce-${sent.length}` };
      },
    },
    inboundMail: {
      get: async (key) => {
        if (!objects[key]) throw new Error(`NoSuchKey ${key}`);
        return objects[key];
      },
      put: async (key, body) => void (objects[key] = body),
    },
    inboundBucket: BUCKET,
    tokenSecret: async () => SECRET,
  };
  const store = (key: string, raw: Buffer) => (objects[key] = raw);
  return { deps, published, sent, table, store };
}

function mime(options: ConstructorParameters<typeof MailComposer>[0] = {}): Promise<Buffer> {
  return new MailComposer({
    from: 'Rea Der <reader@example.net>',
    to: REPLY,
    subject: 'Re: Hello',
    messageId: '<reply-1@example.net>',
    inReplyTo: '<ses-1@email.amazonses.com>',
    text: 'Thanks!',
    html: '<p>Thanks!</p>',
    ...options,
  })
    .compile()
    .build();
}

const run = (deps: InboundDeps, key = 'inbound/m1', bucket = BUCKET) =>
  handleInboundObject(deps, { bucket, key, receivedAt: '2030-01-02T03:04:00.000Z' });

describe('a reply with a valid token', () => {
  test('publishes ONE email.inbound with the envelope of the original send and the reply', async () => {
    const t = setup();
    t.store('inbound/m1', await mime({ attachments: [{ filename: 'notes.txt', content: 'some notes', contentType: 'text/plain' }] }));
    expect(await run(t.deps)).toEqual({ key: 'inbound/m1', outcome: 'published', activity_id: ACTIVITY_ID });
    expect(t.published).toHaveLength(1);
    const event = t.published[0];
    expect(event).toEqual({
      event: 'email.inbound',
      timestamp: NOW.toISOString(),
      project_id: PROJECT_ID,
      is_test: false,
      data: {
        activity_id: ACTIVITY_ID,
        thread_id: ACTIVITY_ID,
        event_type: 'inbound',
        event_timestamp: '2030-01-02T03:04:00.000Z',
        message_id: '<reply-1@example.net>',
        in_reply_to: '<ses-1@email.amazonses.com>',
        from: { address: 'reader@example.net', name: 'Rea Der' },
        to: [{ address: REPLY, name: null }],
        subject: 'Re: Hello',
        text: 'Thanks!',
        html: '<p>Thanks!</p>',
        attachments: [{ filename: 'notes.txt', content_type: 'text/plain', size: 10, content: Buffer.from('some notes').toString('base64') }],
        received_at: '2030-01-02T03:04:00.000Z',
      },
    });
    expect(event).not.toHaveProperty('environment');
    expect(t.sent).toEqual([]);
  });

  test('carries is_test of a test send and the environment when the send set one', async () => {
    const t = setup({ activity: activity({ is_test: true, environment: 'staging' }), project: project({ inbound_webhook_environments: { staging: 'https://s' } }) });
    t.store('inbound/m1', await mime());
    await run(t.deps);
    expect(t.published[0]).toMatchObject({ is_test: true, environment: 'staging' });
  });

  test('a redelivered S3 event of the same object publishes nothing more', async () => {
    const t = setup();
    t.store('inbound/m1', await mime());
    await run(t.deps);
    expect((await run(t.deps)).outcome).toBe('duplicate');
    expect(t.published).toHaveLength(1);
    expect(t.table.get(`${inboundMailKey('inbound/m1').pk}|INBOUND`)).toMatchObject({ outcome: 'published', activity_id: ACTIVITY_ID });
    // Another object (another reply to the same activity) is published.
    t.store('inbound/m2', await mime({ messageId: '<reply-2@example.net>' }));
    expect((await run(t.deps, 'inbound/m2')).outcome).toBe('published');
    expect(t.published).toHaveLength(2);
  });

  test('a failed publish gives the claim back, so the retried event publishes', async () => {
    const t = setup({ publishFails: 1 });
    t.store('inbound/m1', await mime());
    await expect(run(t.deps)).rejects.toThrow('queue down');
    expect(t.table.has(`${inboundMailKey('inbound/m1').pk}|INBOUND`)).toBe(false);
    expect((await run(t.deps)).outcome).toBe('published');
    expect(t.published).toHaveLength(1);
  });
});

describe('mail that publishes nothing', () => {
  test('a tampered token', async () => {
    const t = setup();
    t.store('inbound/m1', await mime({ to: REPLY.replace(/[0-9a-f](?=@)/, (c) => (c === '0' ? '1' : '0')) }));
    expect((await run(t.deps)).outcome).toBe('bad_token');
    expect(t.published).toEqual([]);
  });

  test('no reply address (SES set-up object, stray mail)', async () => {
    const t = setup();
    t.store('inbound/AMAZON_SES_SETUP_NOTIFICATION', Buffer.from('Amazon SES setup notification'));
    expect((await run(t.deps, 'inbound/AMAZON_SES_SETUP_NOTIFICATION')).outcome).toBe('no_token');
    t.store('inbound/m1', await mime({ to: 'info@reply.example.com' }));
    expect((await run(t.deps)).outcome).toBe('no_token');
    expect(t.published).toEqual([]);
  });

  test('a valid token of an activity that no longer exists', async () => {
    const t = setup({ activity: null });
    t.store('inbound/m1', await mime());
    expect(await run(t.deps)).toEqual({ key: 'inbound/m1', outcome: 'unknown_activity', activity_id: ACTIVITY_ID });
    expect(t.published).toEqual([]);
  });

  test('a campaign mail (only API sends carry the token)', async () => {
    const t = setup({ activity: activity({ campaign_id: 'c1' }) });
    t.store('inbound/m1', await mime());
    expect((await run(t.deps)).outcome).toBe('not_api_send');
  });

  test('a project without any URL rule 4 could pick', async () => {
    for (const p of [project({ webhook_url: null }), project({ webhook_url: null, inbound_webhook_environments: { staging: 'https://s' } })]) {
      const t = setup({ project: p });
      t.store('inbound/m1', await mime());
      expect((await run(t.deps)).outcome).toBe('no_target');
      expect(t.published).toEqual([]);
    }
  });

  test("SES's virus verdict FAIL", async () => {
    const t = setup();
    t.store('inbound/m1', await mime({ headers: { 'X-SES-Virus-Verdict': 'FAIL' } }));
    expect((await run(t.deps)).outcome).toBe('virus');
  });

  test('an event of another bucket', async () => {
    const t = setup();
    expect((await run(t.deps, 'inbound/m1', 'elsewhere')).outcome).toBe('other_bucket');
  });
});

describe('a reply over 150 KB bounces', () => {
  const big = () => mime({ subject: 'Re: Hello', attachments: [{ filename: 'photo.jpg', content: Buffer.alloc(120 * 1024, 5) }] });

  test('the sender gets one "Undeliverable" mail from mailer-daemon@<inbound domain>; nothing is published', async () => {
    const t = setup();
    const raw = await big();
    expect(raw.length).toBeGreaterThan(MAX_INBOUND_BYTES);
    t.store('inbound/m1', raw);
    expect(await run(t.deps)).toEqual({ key: 'inbound/m1', outcome: 'bounced', activity_id: ACTIVITY_ID });
    expect(t.published).toEqual([]);
    expect(t.sent).toHaveLength(1);
    const mail = t.sent[0];
    expect(mail.from).toBe('mailer-daemon@reply.example.com');
    expect(mail.recipients).toEqual(['reader@example.net']);
    const parsed = await simpleParser(mail.raw);
    expect(parsed.subject).toBe('Undeliverable: Re: Hello');
    expect(parsed.text).toContain('150 KB');
    expect(parsed.text).toContain(REPLY);
    expect(parsed.inReplyTo).toBe('<reply-1@example.net>');
    expect(parsed.headers.get('auto-submitted')).toBe('auto-replied');
    expect((parsed.to as { value: { address: string }[] }).value[0].address).toBe('reader@example.net');
    // Redelivered: no second bounce.
    expect((await run(t.deps)).outcome).toBe('duplicate');
    expect(t.sent).toHaveLength(1);
  });

  test('just under the limit is published; the limit counts the raw (base64) size', async () => {
    const t = setup();
    // 100 KB of content is about 137 KB once base64-encoded: under 150 KB.
    const raw = await mime({ attachments: [{ filename: 'a.bin', content: Buffer.alloc(100 * 1024, 5) }] });
    expect(raw.length).toBeLessThan(MAX_INBOUND_BYTES);
    t.store('inbound/m1', raw);
    expect((await run(t.deps)).outcome).toBe('published');
    expect((t.published[0].data.attachments as { size: number }[])[0].size).toBe(100 * 1024);
  });

  test('automatic mail over the limit is dropped without an answer', async () => {
    const t = setup();
    t.store('inbound/m1', await mime({ headers: { 'Auto-Submitted': 'auto-replied' }, attachments: [{ filename: 'x', content: Buffer.alloc(200 * 1024) }] }));
    expect((await run(t.deps)).outcome).toBe('dropped_oversize');
    expect(t.sent).toEqual([]);
    expect(t.published).toEqual([]);
  });

  test('a tampered token over the limit is not bounced (no backscatter for mail that is not ours)', async () => {
    const t = setup();
    t.store('inbound/m1', await mime({ to: 'reply+0000@reply.example.com', attachments: [{ filename: 'x', content: Buffer.alloc(200 * 1024) }] }));
    expect((await run(t.deps)).outcome).toBe('bad_token');
    expect(t.sent).toEqual([]);
  });
});
