import { clickToken, openToken, verifyOpenToken } from '../../../../shared/mail-pipeline/tracking/tracking-tokens';
import {
  ensureUnsubscribeFooter,
  maskEmail,
  unsubscribeLinks,
  unsubscribeToken,
  verifyUnsubscribeToken,
  verifyViewToken,
  viewToken,
} from '../../../../shared/mail-pipeline/unsubscribe';
import { useServiceEnvironment } from '../../support/service-environment';

const SECRET = 'unit-links-secret-0123456789';
const ID = '3f2504e0-4f89-11d3-9a0c-0305e82c3301';
const BASE = 'https://api.example.com';
useServiceEnvironment({ TOKEN_SECRET: SECRET, INBOUND_DOMAIN: 'reply.example.net' });

/** Flips one bit of the decoded token and encodes it again (canonically). */
function flip(token: string, byte: number): string {
  const raw = Buffer.from(token, 'base64url');
  raw[byte] ^= 1;
  return raw.toString('base64url');
}

describe('tokens', () => {
  test('unsubscribe tokens round trip the activity and the (lowercased) address', () => {
    const token = unsubscribeToken(ID, 'Reader@Example.com', SECRET);
    expect(token).toMatch(/^[A-Za-z0-9_-]+$/);
    expect(verifyUnsubscribeToken(token, SECRET)).toEqual({ activityId: ID, email: 'reader@example.com' });
  });

  test('view tokens round trip the activity', () => {
    const token = viewToken(ID, SECRET);
    expect(token).toHaveLength(44);
    expect(verifyViewToken(token, SECRET)).toBe(ID);
  });

  test('tampered, truncated, extended, other-secret and non-canonical tokens fail', () => {
    const unsub = unsubscribeToken(ID, 'reader@example.com', SECRET);
    const view = viewToken(ID, SECRET);
    for (let i = 0; i < Buffer.from(unsub, 'base64url').length; i += 7) expect(verifyUnsubscribeToken(flip(unsub, i), SECRET)).toBeUndefined();
    for (let i = 0; i < Buffer.from(view, 'base64url').length; i++) expect(verifyViewToken(flip(view, i), SECRET)).toBeUndefined();
    expect(verifyUnsubscribeToken(unsub.slice(0, -1), SECRET)).toBeUndefined();
    expect(verifyViewToken(`${view}A`, SECRET)).toBeUndefined();
    expect(verifyUnsubscribeToken(unsub, 'another-secret-0123456789')).toBeUndefined();
    expect(verifyViewToken(view, 'another-secret-0123456789')).toBeUndefined();
    expect(verifyViewToken(`${view.slice(0, -1)}${view.endsWith('A') ? 'B' : 'A'}`, SECRET)).toBeUndefined();
    expect(verifyViewToken(undefined, SECRET)).toBeUndefined();
    expect(verifyUnsubscribeToken('', SECRET)).toBeUndefined();
    expect(verifyUnsubscribeToken('not a token!', SECRET)).toBeUndefined();
  });

  test('kinds and purposes cannot be swapped', () => {
    expect(verifyUnsubscribeToken(viewToken(ID, SECRET), SECRET)).toBeUndefined();
    expect(verifyViewToken(unsubscribeToken(ID, 'a@b.co', SECRET), SECRET)).toBeUndefined();
    // Tracking tokens use another mac purpose: same layout, same secret, still not valid here.
    expect(verifyViewToken(openToken(ID, SECRET), SECRET)).toBeUndefined();
    expect(verifyUnsubscribeToken(clickToken(ID, 0, 'https://example.com', SECRET), SECRET)).toBeUndefined();
    expect(verifyOpenToken(viewToken(ID, SECRET), SECRET)).toBeUndefined();
  });

  test('bad input is refused when signing', () => {
    expect(() => viewToken('nope', SECRET)).toThrow();
    expect(() => unsubscribeToken(ID, '', SECRET)).toThrow();
    expect(() => unsubscribeToken(ID, `${'a'.repeat(250)}@example.com`, SECRET)).toThrow();
  });
});

describe('unsubscribeLinks', () => {
  const links = unsubscribeLinksFor('reader@example.com');

  function unsubscribeLinksFor(email: string) {
    return () => unsubscribeLinks({ activityId: ID, projectId: 'p1', email, baseUrl: `${BASE}/`, secret: SECRET });
  }

  test('URLs carry verifiable tokens under the base URL', () => {
    const l = links();
    const u = /^https:\/\/api\.example\.com\/u\/([A-Za-z0-9_-]+)$/.exec(l.unsubscribeUrl);
    const v = /^https:\/\/api\.example\.com\/v\/([A-Za-z0-9_-]+)$/.exec(l.viewInBrowserUrl);
    expect(verifyUnsubscribeToken(u?.[1], SECRET)).toEqual({ activityId: ID, email: 'reader@example.com' });
    expect(verifyViewToken(v?.[1], SECRET)).toBe(ID);
  });

  test('headers follow RFC 2369 / RFC 8058 exactly', () => {
    const l = links();
    const token = l.unsubscribeUrl.split('/u/')[1];
    expect(l.headers).toEqual({
      'List-Unsubscribe': `<${l.unsubscribeUrl}>, <mailto:unsubscribe+${token}@reply.example.net>`,
      'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click',
    });
    expect(l.headers['List-Unsubscribe']).toMatch(/^<https:\/\/[^<>\s,]+>, <mailto:[^<>\s,]+>$/);
  });
});

describe('ensureUnsubscribeFooter', () => {
  const url = `${BASE}/u/abc_DEF-123`;

  test('adds one footer before </body>', () => {
    const out = ensureUnsubscribeFooter('<html><body><p>Hi</p></body></html>', url);
    expect(out).toMatch(/<p>Hi<\/p><div[^>]*><a href="https:\/\/api\.example\.com\/u\/abc_DEF-123"[^>]*>Unsubscribe<\/a><\/div><\/body><\/html>$/);
    expect(out.split(url)).toHaveLength(2);
    // Once: a second pass sees the URL and changes nothing.
    expect(ensureUnsubscribeFooter(out, url)).toBe(out);
  });

  test('appends at the end without a body element', () => {
    const out = ensureUnsubscribeFooter('<p>Hi</p>', url);
    expect(out.startsWith('<p>Hi</p><div')).toBe(true);
    expect(out.endsWith('</div>')).toBe(true);
    expect(out).toContain(`href="${url}"`);
  });

  test('leaves the HTML alone when it already carries the URL', () => {
    const html = `<body><a href="${url}">Leave this list</a></body>`;
    expect(ensureUnsubscribeFooter(html, url)).toBe(html);
  });
});

test('maskEmail keeps the first and last letter and the domain', () => {
  expect(maskEmail('reader@example.com')).toBe('r****r@example.com');
  expect(maskEmail('ab@example.com')).toBe('a*@example.com');
  expect(maskEmail('x')).toBe('***');
});
