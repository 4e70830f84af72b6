import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { unsubscribeLinks } from '../../shared/mail-pipeline/unsubscribe';
import { CLOUD_TIMEOUT_MS, sendBody, startTestCloud, type TestCloud } from './support/test-cloud';

/**
 * The unsubscribe and view-in-browser pages end to end: a sent mail's signed links show a
 * confirmation page, accept the RFC 8058 one-click POST (form-encoded, no key), suppress the
 * address for the project (reason `unsubscribe`) so the next send is `suppressed`, and show the
 * stored HTML of the mail. Bad tokens are a 404 page.
 */

let cloud: TestCloud;
let secret: string;

beforeAll(async () => {
  cloud = await startTestCloud();
  secret = fs.readFileSync(path.join(path.dirname(cloud.outboxDir), 'token-secret'), 'utf8').trim();
}, CLOUD_TIMEOUT_MS);
afterAll(async () => {
  await cloud?.stop();
});

/** Sends one mail to `to` and waits until it left. */
async function send(to: string, html: string): Promise<string> {
  const res = await cloud.api('POST', '/v1/send-email', { body: sendBody(cloud, { recipient_email: to, subject: `links-${randomUUID()}`, html_body: html }) });
  expect(res.status).toBe(200);
  return res.body.email_id as string;
}

function linksFor(activityId: string, email: string) {
  return unsubscribeLinks({ activityId, projectId: cloud.seed.project_id, email, baseUrl: cloud.baseUrl, secret });
}

/** Flips a character in the middle of a URL's token. */
function tampered(url: string): string {
  const i = url.length - 10;
  return `${url.slice(0, i)}${url[i] === 'A' ? 'B' : 'A'}${url.slice(i + 1)}`;
}

test('GET shows the confirmation form; the one-click POST suppresses; the next send is suppressed', async () => {
  const email = `reader-${randomUUID().slice(0, 8)}@example.com`;
  const id = await send(email, '<html><body><p>Weekly news</p></body></html>');
  await cloud.waitForActivity(id, cloud.seed.live_key, (a) => typeof a.message_id === 'string');
  const links = linksFor(id, email);

  const pageRes = await fetch(links.unsubscribeUrl);
  expect(pageRes.status).toBe(200);
  expect(pageRes.headers.get('content-type')).toMatch(/^text\/html/);
  expect(pageRes.headers.get('x-frame-options')).toBe('DENY');
  const page = await pageRes.text();
  expect(page).toMatch(/<form method="post">/);
  expect(page).toContain('r****');
  expect(page).not.toContain(email);
  // Only showing the page suppresses nothing.
  expect((await cloud.api('GET', `/v1/suppressions/${encodeURIComponent(email)}`)).status).toBe(404);

  const post = await fetch(links.unsubscribeUrl, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: 'List-Unsubscribe=One-Click',
  });
  expect(post.status).toBe(200);
  expect(await post.text()).toContain('You are unsubscribed');

  const entry = await cloud.api('GET', `/v1/suppressions/${encodeURIComponent(email)}`);
  expect(entry.status).toBe(200);
  expect(entry.body.data).toMatchObject({ email, reason: 'unsubscribe', source: 'one_click' });

  // Idempotent: a second POST (the page's button, no body) answers the same and changes nothing.
  const again = await fetch(links.unsubscribeUrl, { method: 'POST' });
  expect(again.status).toBe(200);
  expect((await cloud.api('GET', `/v1/suppressions/${encodeURIComponent(email)}`)).body.data).toMatchObject({ source: 'one_click' });

  const next = await send(email, '<p>Another one</p>');
  await cloud.waitForActivity(next, cloud.seed.live_key, (a) => a.current_status === 'suppressed');
});

test('the view-in-browser page shows the sent HTML under a strict CSP', async () => {
  const marker = `view-${randomUUID()}`;
  const html = `<html><body><h1>${marker}</h1><p>Hello there</p></body></html>`;
  const id = await send('viewer@example.com', html);
  await cloud.waitForActivity(id, cloud.seed.live_key, (a) => typeof a.message_id === 'string');
  const links = linksFor(id, 'viewer@example.com');

  const res = await fetch(links.viewInBrowserUrl);
  expect(res.status).toBe(200);
  expect(res.headers.get('content-type')).toMatch(/^text\/html/);
  expect(res.headers.get('x-frame-options')).toBe('DENY');
  const csp = res.headers.get('content-security-policy') ?? '';
  expect(csp).toContain("default-src 'none'");
  expect(csp).toContain("script-src 'none'");
  const body = await res.text();
  expect(body).toContain(`<h1>${marker}</h1>`);
});

test('bad tokens are a 404 page and suppress nothing', async () => {
  const email = `tamper-${randomUUID().slice(0, 8)}@example.com`;
  const id = await send(email, '<p>Hi</p>');
  await cloud.waitForActivity(id, cloud.seed.live_key, (a) => typeof a.message_id === 'string');
  const links = linksFor(id, email);

  for (const url of [tampered(links.unsubscribeUrl), tampered(links.viewInBrowserUrl), `${cloud.baseUrl}/u/nope`, `${cloud.baseUrl}/v/nope`]) {
    const res = await fetch(url);
    expect(res.status).toBe(404);
    expect(res.headers.get('content-type')).toMatch(/^text\/html/);
    expect(await res.text()).toContain('This link is not valid');
  }
  // A view token is no unsubscribe token.
  const swapped = await fetch(`${cloud.baseUrl}/u/${links.viewInBrowserUrl.split('/v/')[1]}`, { method: 'POST', body: 'List-Unsubscribe=One-Click' });
  expect(swapped.status).toBe(404);
  const post = await fetch(tampered(links.unsubscribeUrl), { method: 'POST', body: 'List-Unsubscribe=One-Click' });
  expect(post.status).toBe(404);
  expect((await cloud.api('GET', `/v1/suppressions/${encodeURIComponent(email)}`)).status).toBe(404);
});
