import fs from 'node:fs';
import path from 'node:path';
import { refreshConfig } from '../../shared/platform/core/config';
import { services } from '../../composition/services';
import { RECEIVING_OFF, getSubdomain } from '../../shared/identities/domains/subdomains';
import { CLOUD_TIMEOUT_MS, startTestCloud, type TestCloud } from './support/test-cloud';

/**
 * A deployment without receiving (the stack without `inboundDomain` sets RECEIVING=off): nothing it
 * sends or tells users to publish leads to a mailbox that does not exist. The local cloud always
 * receives, so this file turns receiving off in its own process after the start.
 */
let cloud: TestCloud;

beforeAll(async () => {
  cloud = await startTestCloud();
  refreshConfig({ RECEIVING: 'off' });
}, CLOUD_TIMEOUT_MS);
afterAll(async () => {
  refreshConfig({ RECEIVING: 'on', DMARC_REPORTS_DOMAIN: undefined });
  await cloud?.stop();
});

let counter = 0;
const fresh = () => `r${Date.now().toString(36)}${(counter++).toString(36)}.example.com`;
const register = (domain: string) => cloud.api('POST', '/domains/register', { body: { domain, sender_name: 'Acme', sender_email: `hello@${domain}` } });

/** Long header lines are folded in MIME; unfold them to read a header whole. */
const unfolded = (eml: string) => eml.replace(/\r?\n[ \t]+/g, ' ');

/** The raw mail SES got for an accepted send. */
async function sentMime(res: { status: number; body: Record<string, unknown> }): Promise<string> {
  expect(res.status).toBe(200);
  const activity = await cloud.waitForActivity(res.body.email_id as string, cloud.seed.live_key, (a) => Boolean(a.message_id));
  return unfolded(fs.readFileSync(path.join(cloud.outboxDir, `${activity.message_id as string}.eml`), 'utf8'));
}
const sendEmail = (over: Record<string, unknown> = {}) =>
  cloud.api('POST', '/send-email', { body: { recipient: 'reader@example.com', sender: cloud.seed.sender_email, subject: 'Hello', html: '<p>Hello there</p>', ...over } });

describe('POST /domains/reply without receiving (4.12)', () => {
  test('is a 409 that says receiving is off in this deployment, and stores nothing', async () => {
    const domain = fresh();
    expect((await register(domain)).status).toBe(201);
    const res = await cloud.api('POST', '/domains/reply', { body: { domain } });
    expect(res.status).toBe(409);
    expect(res.body).toEqual({ error: RECEIVING_OFF });
    expect(RECEIVING_OFF).toMatch(/receiving is off/);
    expect(await getSubdomain(services().db, 'reply', cloud.seed.project_id, domain, true)).toBeUndefined();
  });

  test('tracking domains do not depend on it', async () => {
    const domain = fresh();
    await register(domain);
    expect((await cloud.api('POST', '/domains/tracking', { body: { domain } })).status).toBe(201);
  });
});

describe('POST /domains/register without receiving (part 2)', () => {
  test('still gives 8 records; the DMARC record names no reports address when no reports domain is set', async () => {
    const res = await register(fresh());
    const records = res.body.dns_records as { purpose: string; value: string }[];
    expect(records).toHaveLength(8);
    expect(records.find((r) => r.purpose === 'dmarc')?.value).toBe('v=DMARC1; p=none');
  });

  test('with a DMARC reports domain, reports go there', async () => {
    refreshConfig({ DMARC_REPORTS_DOMAIN: 'dmarc.example.net' });
    try {
      const res = await register(fresh());
      const dmarc = (res.body.dns_records as { purpose: string; value: string }[]).find((r) => r.purpose === 'dmarc');
      expect(dmarc?.value).toBe(`v=DMARC1; p=none; rua=mailto:d-${res.body.identity_id as string}@dmarc.example.net`);
    } finally {
      refreshConfig({ DMARC_REPORTS_DOMAIN: undefined });
    }
  });
});

describe('mail sent without receiving', () => {
  test('has no reply-token Reply-To: replies go to the sender', async () => {
    const eml = await sentMime(await sendEmail());
    expect(eml).not.toMatch(/^Reply-To:/im);
    expect(eml).not.toMatch(/reply\+[0-9a-f]+@/);
  });

  test('marketing mail: List-Unsubscribe carries only the https one-click URL, with List-Unsubscribe-Post', async () => {
    const eml = await sentMime(await sendEmail({ email_type: 'marketing' }));
    expect(eml).toMatch(/^List-Unsubscribe: <http:\/\/localhost:\d+\/u\/[A-Za-z0-9_-]+>\r?$/m);
    expect(eml).toMatch(/^List-Unsubscribe-Post: List-Unsubscribe=One-Click/m);
    expect(eml).not.toMatch(/mailto:/i);
  });

  test('a template send keeps its own Reply-To (the sender) and gets only the https List-Unsubscribe', async () => {
    const res = await cloud.api('POST', '/v1/send-template-email', {
      body: { recipient_email: 'buyer@example.com', sender_email: cloud.seed.sender_email, html_body: '<p>Hello {{who}}</p>', variables: { who: 'you' } },
    });
    const eml = await sentMime(res);
    expect(eml).toMatch(new RegExp(`^Reply-To: ${cloud.seed.sender_email.replace(/[.+]/g, '\\$&')}\\r?$`, 'm'));
    expect(eml).toMatch(/^List-Unsubscribe: <http:\/\/localhost:\d+\/u\/[A-Za-z0-9_-]+>\r?$/m);
  });
});
