import { randomUUID } from 'node:crypto';
import { clickToken, linkHash, openToken, verifyClickToken, verifyOpenToken } from '../../../../shared/mail-pipeline/tracking/tracking-tokens';

const SECRET = 'tracking-secret-1';
const ID = '3f2504e0-4f89-11d3-9a0c-0305e82c3301';
const LINK = 'https://example.com/pricing?utm_source=mail&x=1';

/** Flips one character of a token to another base64url character. */
function tamper(token: string, at: number): string {
  const c = token[at] === 'A' ? 'B' : 'A';
  return token.slice(0, at) + c + token.slice(at + 1);
}

describe('open tokens', () => {
  test('round trip: the token carries the activity id', () => {
    expect(verifyOpenToken(openToken(ID, SECRET), SECRET)).toBe(ID);
    for (let i = 0; i < 50; i++) {
      const id = randomUUID();
      expect(verifyOpenToken(openToken(id, SECRET), SECRET)).toBe(id);
    }
  });

  test('an upper-case id comes back lowercased', () => {
    expect(verifyOpenToken(openToken(ID.toUpperCase(), SECRET), SECRET)).toBe(ID);
  });

  test('URL-safe, 44 characters, no padding', () => {
    const token = openToken(ID, SECRET);
    expect(token).toMatch(/^[A-Za-z0-9_-]{44}$/);
  });

  test('any changed character is rejected', () => {
    const token = openToken(ID, SECRET);
    for (let i = 0; i < token.length; i++) expect(verifyOpenToken(tamper(token, i), SECRET)).toBeUndefined();
  });

  test('a token signed with another secret is rejected', () => {
    expect(verifyOpenToken(openToken(ID, 'another-secret'), SECRET)).toBeUndefined();
  });

  test('truncated, extended, empty and garbage tokens are rejected', () => {
    const token = openToken(ID, SECRET);
    for (const bad of [token.slice(1), `${token}A`, '', 'not a token', `${token.slice(0, -1)}=`, token.replace(/./g, '.'), undefined]) {
      expect(verifyOpenToken(bad, SECRET)).toBeUndefined();
    }
  });

  test('a click token is not an open token, and the other way round', () => {
    expect(verifyOpenToken(clickToken(ID, 0, LINK, SECRET), SECRET)).toBeUndefined();
    expect(verifyClickToken(openToken(ID, SECRET), SECRET)).toBeUndefined();
  });

  test('a non-uuid activity id is refused when signing', () => {
    expect(() => openToken('42', SECRET)).toThrow();
  });
});

describe('click tokens', () => {
  test('round trip: activity id, link index and link hash', () => {
    const token = clickToken(ID, 3, LINK, SECRET);
    expect(token).toMatch(/^[A-Za-z0-9_-]{55}$/);
    expect(verifyClickToken(token, SECRET)).toEqual({ activityId: ID, index: 3, linkHash: linkHash(LINK) });
  });

  test('the largest index round-trips; out-of-range indexes are refused', () => {
    expect(verifyClickToken(clickToken(ID, 65535, LINK, SECRET), SECRET)?.index).toBe(65535);
    expect(() => clickToken(ID, 65536, LINK, SECRET)).toThrow();
    expect(() => clickToken(ID, -1, LINK, SECRET)).toThrow();
    expect(() => clickToken(ID, 1.5, LINK, SECRET)).toThrow();
  });

  test('tokens differ by activity, index and link', () => {
    const base = clickToken(ID, 0, LINK, SECRET);
    expect(clickToken(randomUUID(), 0, LINK, SECRET)).not.toBe(base);
    expect(clickToken(ID, 1, LINK, SECRET)).not.toBe(base);
    expect(clickToken(ID, 0, `${LINK}&y=2`, SECRET)).not.toBe(base);
    expect(clickToken(ID, 0, LINK, SECRET)).toBe(base);
  });

  test('any changed character is rejected', () => {
    const token = clickToken(ID, 1, LINK, SECRET);
    for (let i = 0; i < token.length; i++) expect(verifyClickToken(tamper(token, i), SECRET)).toBeUndefined();
  });

  test('a token signed with another secret is rejected', () => {
    expect(verifyClickToken(clickToken(ID, 1, LINK, 'another-secret'), SECRET)).toBeUndefined();
  });

  test('the link hash is short and stable', () => {
    expect(linkHash(LINK)).toMatch(/^[0-9a-f]{12}$/);
    expect(linkHash(LINK)).toBe(linkHash(LINK));
    expect(linkHash(LINK)).not.toBe(linkHash('https://example.com/'));
  });
});
