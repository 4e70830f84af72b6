import { randomUUID } from 'node:crypto';
import { services } from '../../composition/services';
import { listEngagement } from '../../shared/mail-pipeline/delivery/engagement-repository';
import { putSubdomain } from '../../shared/identities/domains/subdomains';
import { domainOf } from '../../shared/platform/mail/addresses';
import { dayOf, readDomainCounts } from '../../shared/identities/stats/domain-stats';
import { TRANSPARENT_GIF } from '../../shared/mail-pipeline/tracking/responses';
import { clickToken, openToken, verifyClickToken } from '../../shared/mail-pipeline/tracking/tracking-tokens';
import { CLOUD_TIMEOUT_MS, sendBody, startTestCloud, type TestCloud } from './support/test-cloud';

/**
 * Open and click tracking end to end (issue "delivery lifecycle", item 4): an API send goes out with
 * its links rewritten and a pixel; the pixel records opens, the redirect records clicks and leads
 * only to links of that mail; unique_opens and unique_clicks count once per activity.
 *
 * The local cloud points TRACKING_BASE_URL at its own API, which serves /t/o and /t/c.
 */

const PRICING = 'https://example.com/pricing?plan=pro&utm_source=mail';
const DOCS = 'https://docs.example.com/start';
const HTML = `<html><body>
<p>Hello! See <a href="https://example.com/pricing?plan=pro&amp;utm_source=mail">our pricing</a>
and <a href="${DOCS}">the docs</a> (<a href="${DOCS}">again</a>).</p>
<p><a href="mailto:help@example.com">Write to us</a></p>
</body></html>`;

let cloud: TestCloud;

beforeAll(async () => {
  cloud = await startTestCloud();
  expect(process.env.TRACKING_BASE_URL).toBe(cloud.baseUrl);
}, CLOUD_TIMEOUT_MS);
afterAll(async () => {
  await cloud?.stop();
});

interface SentMail {
  id: string;
  html: string;
  pixel: string;
  clicks: string[];
}

/** Sends `html` through the API, waits until it is out, and reads the tracked HTML from the SES outbox. */
async function sendTracked(html = HTML): Promise<SentMail> {
  const subject = `tracking-${randomUUID()}`;
  const res = await cloud.api('POST', '/v1/send-email', { body: sendBody(cloud, { subject, html_body: html }) });
  expect(res.status).toBe(200);
  const id = res.body.email_id as string;
  await cloud.waitForActivity(id, cloud.seed.live_key, (a) => typeof a.message_id === 'string');
  const mail = (await cloud.outbox()).find((m) => m.subject === subject);
  const sent = mail?.body.html ?? '';
  const pixel = /<img src="([^"]+\/t\/o\/[^"]+\.gif)"/.exec(sent)?.[1] ?? '';
  const clicks = [...sent.matchAll(/href="([^"]+\/t\/c\/[^"]+)"/g)].map((m) => m[1]);
  return { id, html: sent, pixel, clicks };
}

/** The same path on the local API (links on a tracking domain cannot be resolved here). */
const local = (url: string) => `${cloud.baseUrl}${new URL(url).pathname}`;

const get = (url: string, headers: Record<string, string> = {}) => fetch(local(url), { redirect: 'manual', headers });

const counts = async () => readDomainCounts(services().db, cloud.seed.project_id, domainOf(cloud.seed.sender_email), dayOf(new Date()), dayOf(new Date()));

async function activity(id: string, include = ''): Promise<Record<string, unknown>> {
  const res = await cloud.api('GET', `/v1/activity/${id}${include ? `?include=${include}` : ''}`);
  expect(res.status).toBe(200);
  return res.body.data as Record<string, unknown>;
}

describe('an API send goes out tracked', () => {
  test('links are rewritten to the redirect, mailto is not, a pixel is added; the stored body keeps the original', async () => {
    const mail = await sendTracked();
    expect(mail.pixel.startsWith(`${cloud.baseUrl}/t/o/`)).toBe(true);
    expect(mail.clicks).toHaveLength(3);
    expect(mail.clicks.every((u) => u.startsWith(`${cloud.baseUrl}/t/c/`))).toBe(true);
    // The same link twice carries the same token.
    expect(mail.clicks[1]).toBe(mail.clicks[2]);
    expect(mail.html).toContain('href="mailto:help@example.com"');
    expect(mail.html).not.toContain('https://example.com/pricing');

    const stored = await activity(mail.id, 'html');
    expect(stored.email_type).toBe('api');
    expect(stored.html_content).toBe(HTML);
  });
});

describe('opens', () => {
  test('the pixel records an open; a second load adds a timeline entry but not a unique open', async () => {
    const mail = await sendTracked();
    const before = await counts();

    const first = await get(mail.pixel, { 'user-agent': 'Mail/1.0', 'x-forwarded-for': '203.0.113.7, 10.0.0.1' });
    expect(first.status).toBe(200);
    expect(first.headers.get('content-type')).toBe('image/gif');
    expect(first.headers.get('cache-control')).toContain('no-store');
    const bytes = Buffer.from(await first.arrayBuffer());
    expect(bytes.subarray(0, 6).toString('latin1')).toBe('GIF89a');
    expect(bytes.equals(TRANSPARENT_GIF)).toBe(true);

    const afterFirst = await activity(mail.id);
    expect(typeof afterFirst.opened_first_at).toBe('string');
    expect(afterFirst.clicked_first_at).toBeNull();

    expect((await get(mail.pixel, { 'user-agent': 'Mail/2.0' })).status).toBe(200);
    const afterSecond = await activity(mail.id);
    // The first open stays the first.
    expect(afterSecond.opened_first_at).toBe(afterFirst.opened_first_at);

    const opens = (await listEngagement(services().db, mail.id)).filter((e) => e.event_type === 'open');
    expect(opens).toHaveLength(2);
    expect(opens.map((e) => e.user_agent).sort()).toEqual(['Mail/1.0', 'Mail/2.0']);
    expect(opens.find((e) => e.user_agent === 'Mail/1.0')?.ip_address).toBe('203.0.113.7');
    expect([...opens].sort((a, b) => a.event_timestamp.localeCompare(b.event_timestamp))[0].event_timestamp).toBe(afterFirst.opened_first_at);

    // The activity's timeline (include=events) shows both opens.
    const events = (await activity(mail.id, 'events')).events as Record<string, unknown>[];
    const shown = events.filter((e) => e.event_type === 'open');
    expect(shown).toHaveLength(2);
    expect(shown[0].event_timestamp).toBe(afterFirst.opened_first_at);
    expect(shown.find((e) => e.user_agent === 'Mail/1.0')?.ip_address).toBe('203.0.113.7');

    const after = await counts();
    expect(after.unique_opens - before.unique_opens).toBe(1);
    expect(after.unique_clicks - before.unique_clicks).toBe(0);
  });

  test('a tampered or foreign pixel token still gets the GIF, and records nothing', async () => {
    const mail = await sendTracked();
    const token = new URL(mail.pixel).pathname.slice('/t/o/'.length, -'.gif'.length);
    const tampered = `${token.slice(0, 5)}${token[5] === 'A' ? 'B' : 'A'}${token.slice(6)}`;
    for (const path of [`/t/o/${tampered}.gif`, `/t/o/${openToken(mail.id, 'not-the-secret')}.gif`, '/t/o/nothing.gif']) {
      const res = await fetch(`${cloud.baseUrl}${path}`);
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toBe('image/gif');
      expect(Buffer.from(await res.arrayBuffer()).equals(TRANSPARENT_GIF)).toBe(true);
    }
    expect((await activity(mail.id)).opened_first_at).toBeNull();
    expect(await listEngagement(services().db, mail.id)).toEqual([]);
  });
});

describe('clicks', () => {
  test('a click redirects to the original link and is recorded; unique_clicks counts once', async () => {
    const mail = await sendTracked();
    const before = await counts();

    const pricing = await get(mail.clicks[0], { 'user-agent': 'Browser/1.0', 'x-forwarded-for': '198.51.100.4' });
    expect(pricing.status).toBe(302);
    expect(pricing.headers.get('location')).toBe(PRICING);
    const afterFirst = await activity(mail.id);
    expect(typeof afterFirst.clicked_first_at).toBe('string');

    const docs = await get(mail.clicks[1], { 'user-agent': 'Browser/1.0' });
    expect(docs.status).toBe(302);
    expect(docs.headers.get('location')).toBe(DOCS);
    expect((await activity(mail.id)).clicked_first_at).toBe(afterFirst.clicked_first_at);

    const clicks = await listEngagement(services().db, mail.id);
    expect(clicks.filter((e) => e.event_type === 'click').map((e) => e.url_clicked).sort()).toEqual([DOCS, PRICING].sort());
    expect(clicks.find((e) => e.url_clicked === PRICING)?.ip_address).toBe('198.51.100.4');
    const events = (await activity(mail.id, 'events')).events as Record<string, unknown>[];
    expect(events.filter((e) => e.event_type === 'click').map((e) => e.url_clicked)).toEqual([PRICING, DOCS]);

    const after = await counts();
    expect(after.unique_clicks - before.unique_clicks).toBe(1);
  });

  test('a tampered token is a 404 page, never a redirect, and records nothing', async () => {
    const mail = await sendTracked();
    const token = new URL(mail.clicks[0]).pathname.slice('/t/c/'.length);
    for (const at of [0, 10, 30, token.length - 3]) {
      const tampered = `${token.slice(0, at)}${token[at] === 'A' ? 'B' : 'A'}${token.slice(at + 1)}`;
      const res = await fetch(`${cloud.baseUrl}/t/c/${tampered}`, { redirect: 'manual' });
      expect(res.status).toBe(404);
      expect(res.headers.get('location')).toBeNull();
      expect(res.headers.get('content-type')).toMatch(/^text\/html/);
      expect(await res.text()).toContain('This link is not valid');
    }
    expect((await activity(mail.id)).clicked_first_at).toBeNull();
  });

  test('validly signed tokens that name no link of the mail are 404s: an index beyond the links, another link, another activity', async () => {
    const mail = await sendTracked();
    const secret = await services().tokenSecret();
    const claim = verifyClickToken(new URL(mail.clicks[0]).pathname.slice('/t/c/'.length), secret);
    expect(claim).toEqual(expect.objectContaining({ activityId: mail.id, index: 0 }));

    const forged = [
      // The mail has two distinct links: index 2 is beyond them.
      clickToken(mail.id, 2, 'https://evil.example/', secret),
      clickToken(mail.id, 5, DOCS, secret),
      // A real index, but not the link that sits there.
      clickToken(mail.id, 0, 'https://evil.example/', secret),
      // An activity that does not exist.
      clickToken(randomUUID(), 0, PRICING, secret),
    ];
    for (const token of forged) {
      const res = await fetch(`${cloud.baseUrl}/t/c/${token}`, { redirect: 'manual' });
      expect(res.status).toBe(404);
      expect(res.headers.get('location')).toBeNull();
    }
    expect((await activity(mail.id)).clicked_first_at).toBeNull();
  });
});

describe('the project\'s tracking domain', () => {
  test('a verified track.<domain> served over HTTPS brands the links; a pending one, or one without HTTPS yet, does not', async () => {
    const domain = domainOf(cloud.seed.sender_email);
    const sub = {
      project_id: cloud.seed.project_id,
      kind: 'tracking' as const,
      parent_domain: domain,
      domain: `track.${domain}`,
      records: [],
      created_at: new Date().toISOString(),
      last_checked_at: null,
    };
    try {
      await putSubdomain(services().db, { ...sub, status: 'pending' });
      expect((await sendTracked()).pixel.startsWith(`${cloud.baseUrl}/t/o/`)).toBe(true);

      // Verified but not yet served over HTTPS: the links stay on the API.
      await putSubdomain(services().db, { ...sub, status: 'verified' });
      expect((await sendTracked()).pixel.startsWith(`${cloud.baseUrl}/t/o/`)).toBe(true);

      const at = new Date().toISOString();
      await putSubdomain(services().db, { ...sub, status: 'verified', tls: { status: 'active', requested_at: at, checked_at: at, next_check_at: null } });
      const mail = await sendTracked();
      expect(mail.pixel.startsWith(`https://track.${domain}/t/o/`)).toBe(true);
      expect(mail.clicks.every((u) => u.startsWith(`https://track.${domain}/t/c/`))).toBe(true);
      // The same endpoints answer whatever host the CNAME brings them.
      const res = await get(mail.clicks[0]);
      expect(res.status).toBe(302);
      expect(res.headers.get('location')).toBe(PRICING);
    } finally {
      await putSubdomain(services().db, { ...sub, status: 'pending' });
    }
  });
});
