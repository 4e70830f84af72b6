import { decodeBody } from '../../../../shared/mail-pipeline/activity/activity-body';
import { config, refreshConfig } from '../../../../shared/platform/core/config';
import { buildMime } from '../../../../shared/platform/mail/mime';
import { encodeMailBody } from '../../../../shared/mail-pipeline/mail-body';
import { activityFromReplyAddress, mailReplyTo } from '../../../../shared/mail-pipeline/reply-token';
import type { SendPayload } from '../../../../shared/mail-pipeline/job';
import { unsubscribeLinks } from '../../../../shared/mail-pipeline/unsubscribe';
import { useServiceEnvironment } from '../../support/service-environment';

const SECRET = 'unit-receiving-secret-0123456789';
const ID = '3f2504e0-4f89-11d3-9a0c-0305e82c3301';
useServiceEnvironment({ TOKEN_SECRET: SECRET, INBOUND_DOMAIN: 'reply.mail.example.com' });

const payload = (changes: Partial<SendPayload> = {}): SendPayload => ({
  from_email: 'hello@example.com',
  to: ['reader@example.org'],
  cc: [],
  bcc: [],
  subject: 'Hi',
  html: '<p>Hi</p>',
  attachments: [],
  ...changes,
});

/** The raw mail as the send worker builds it: the Reply-To of mailReplyTo, the List-Unsubscribe headers of a marketing mail. */
async function mailOf(p: SendPayload): Promise<string> {
  const links = unsubscribeLinks({ activityId: ID, projectId: 'p1', email: p.to[0], baseUrl: 'https://api.example.com', secret: SECRET });
  const raw = await buildMime({
    from: { address: p.from_email },
    to: p.to,
    cc: p.cc,
    replyTo: mailReplyTo(config(), ID, p.reply_to, SECRET),
    subject: p.subject,
    html: p.html,
    attachments: [],
    headers: links.headers,
  });
  return raw.toString('utf8');
}

const storedReplyTo = (p: SendPayload) => decodeBody(encodeMailBody({ config: config() }, ID, p, SECRET)).reply_to;
/** A header's value, unfolded (long values are folded onto continuation lines, even right after the colon). */
const header = (eml: string, name: string) =>
  new RegExp(`^${name}:(.*(?:\\r?\\n[ \\t].*)*)`, 'm')
    .exec(eml)?.[1]
    .replace(/\r?\n([ \t])/g, '$1')
    .replace(/\s+/g, ' ')
    .trim();

describe('a mail when the deployment receives mail (RECEIVING=on)', () => {
  beforeAll(() => refreshConfig({ RECEIVING: 'on' }));

  test('replies go to the signed reply address of the activity, in the MIME and in the stored body', async () => {
    const eml = await mailOf(payload());
    expect(activityFromReplyAddress(header(eml, 'Reply-To')!, SECRET)).toBe(ID);
    expect(header(eml, 'Reply-To')).toMatch(/@reply\.mail\.example\.com$/);
    expect(activityFromReplyAddress(storedReplyTo(payload())!, SECRET)).toBe(ID);
  });

  test('List-Unsubscribe offers the https URL and the mailto: address, with one-click', async () => {
    const eml = await mailOf(payload());
    expect(header(eml, 'List-Unsubscribe')).toMatch(/^<https:\/\/api\.example\.com\/u\/[A-Za-z0-9_-]+>, <mailto:unsubscribe\+[A-Za-z0-9_-]+@reply\.mail\.example\.com>$/);
    expect(header(eml, 'List-Unsubscribe-Post')).toBe('List-Unsubscribe=One-Click');
  });

  test("a caller's own Reply-To wins", async () => {
    expect(header(await mailOf(payload({ reply_to: 'support@example.com' })), 'Reply-To')).toBe('support@example.com');
    expect(storedReplyTo(payload({ reply_to: 'support@example.com' }))).toBe('support@example.com');
  });
});

describe('a mail when the deployment receives no mail (RECEIVING=off)', () => {
  beforeAll(() => refreshConfig({ RECEIVING: 'off' }));
  afterAll(() => refreshConfig({ RECEIVING: undefined }));

  test('carries no Reply-To of its own, in the MIME or in the stored body: replies go to the sender', async () => {
    const eml = await mailOf(payload());
    expect(eml).not.toMatch(/^Reply-To:/im);
    expect(eml).not.toContain('reply.mail.example.com');
    expect(storedReplyTo(payload())).toBeUndefined();
  });

  test('List-Unsubscribe carries only the https one-click URL, and List-Unsubscribe-Post stays', async () => {
    const eml = await mailOf(payload());
    expect(header(eml, 'List-Unsubscribe')).toMatch(/^<https:\/\/api\.example\.com\/u\/[A-Za-z0-9_-]+>$/);
    expect(header(eml, 'List-Unsubscribe-Post')).toBe('List-Unsubscribe=One-Click');
    expect(eml).not.toMatch(/mailto:/i);
  });

  test("a caller's own Reply-To is kept", async () => {
    expect(header(await mailOf(payload({ reply_to: 'support@example.com' })), 'Reply-To')).toBe('support@example.com');
    expect(storedReplyTo(payload({ reply_to: 'support@example.com' }))).toBe('support@example.com');
  });
});

describe('RECEIVING is validated', () => {
  afterAll(() => refreshConfig({ RECEIVING: undefined }));

  test('it is on unless set (the local cloud receives mail)', () => {
    refreshConfig({ RECEIVING: undefined });
    expect(config().RECEIVING).toBe('on');
  });

  test('anything but on or off is refused, by name', () => {
    refreshConfig({ RECEIVING: 'yes' });
    expect(() => config().RECEIVING).toThrow('Invalid or missing environment variables: RECEIVING');
  });
});
