import { createHash } from 'node:crypto';
import { AppError } from '../../../../shared/platform/core/errors';
import { generateKey, hashSecret, parseAuthorization } from '../../../../shared/platform/security/api-keys';

// The three messages of part 5, written out on purpose (not imported) so a wording drift fails here.
const MISSING = 'Missing or invalid API key. Use: Authorization: Bearer sk_proj_...';
const BAD_PREFIX = 'Invalid API key prefix. Expected sk_proj_*, sk_live_* or sk_test_*.';
// Partner paths: our wording (part 5 names none).
const PARTNER_MISSING = 'Missing or invalid API key. Use: Authorization: Bearer sk_partner_...';
const PARTNER_BAD_PREFIX = 'Invalid API key prefix. Expected sk_partner_*.';

const SECRET = 'AbCdEfGhIjKlMnOpQrStUvWxYz0123456789abcdefg';
const sha256 = (s: string) => createHash('sha256').update(s).digest('hex');

function errorOf(header: string | undefined, allowed: 'project' | 'partner'): AppError {
  try {
    parseAuthorization(header, allowed);
  } catch (error) {
    expect(error).toBeInstanceOf(AppError);
    return error as AppError;
  }
  throw new Error(`parseAuthorization accepted ${header}`);
}

function expect401(header: string | undefined, allowed: 'project' | 'partner', message: string): void {
  const error = errorOf(header, allowed);
  expect(error.status).toBe(401);
  expect(error.message).toBe(message);
}

describe('parseAuthorization (part 5)', () => {
  describe('missing or malformed key -> 401 "Missing or invalid API key. Use: Authorization: Bearer sk_proj_..."', () => {
    test('no Authorization header', () => expect401(undefined, 'project', MISSING));
    test('an empty header', () => expect401('', 'project', MISSING));
    test('a key without the Bearer scheme', () => expect401(`sk_live_${SECRET}`, 'project', MISSING));
    test('another scheme (Basic)', () => expect401(`Basic sk_live_${SECRET}`, 'project', MISSING));
    test('Bearer with nothing after it', () => expect401('Bearer ', 'project', MISSING));
    test('a token that is not shaped like a key', () => expect401('Bearer not-a-key', 'project', MISSING));
    test('a key whose secret is too short', () => expect401('Bearer sk_live_abc', 'project', MISSING));
    test('a key whose secret has punctuation', () => expect401(`Bearer sk_live_${SECRET.slice(0, 20)}!$`, 'project', MISSING));
    test('two tokens after Bearer', () => expect401(`Bearer sk_live_${SECRET} extra`, 'project', MISSING));
  });

  describe('unknown prefix -> 401 "Invalid API key prefix. Expected sk_proj_*, sk_live_* or sk_test_*."', () => {
    test('sk_dev_ is an unknown prefix', () => expect401(`Bearer sk_dev_${SECRET}`, 'project', BAD_PREFIX));
    test('a partner key on a project route is refused with the same message', () =>
      expect401(`Bearer sk_partner_${SECRET}`, 'project', BAD_PREFIX));
  });

  describe('partner routes take only partner keys', () => {
    test('a live project key on a partner route is refused with the partner prefix message', () =>
      expect401(`Bearer sk_live_${SECRET}`, 'partner', PARTNER_BAD_PREFIX));
    test('a test project key on a partner route is refused with the partner prefix message', () =>
      expect401(`Bearer sk_test_${SECRET}`, 'partner', PARTNER_BAD_PREFIX));
    test('a missing header on a partner route names sk_partner_', () => expect401(undefined, 'partner', PARTNER_MISSING));
    test('a partner key on a partner route is accepted', () => {
      const parsed = parseAuthorization(`Bearer sk_partner_${SECRET}`, 'partner');
      expect(parsed.kind).toEqual({ kind: 'partner' });
      expect(parsed.hash).toBe(sha256(SECRET));
    });
  });

  describe('mode is set only by the prefix', () => {
    test('sk_live_ gives a live project key', () => {
      expect(parseAuthorization(`Bearer sk_live_${SECRET}`, 'project').kind).toEqual({ kind: 'project', mode: 'live' });
    });

    test('sk_proj_ gives a live project key', () => {
      expect(parseAuthorization(`Bearer sk_proj_${SECRET}`, 'project').kind).toEqual({ kind: 'project', mode: 'live' });
    });

    test('sk_test_ gives a test project key', () => {
      expect(parseAuthorization(`Bearer sk_test_${SECRET}`, 'project').kind).toEqual({ kind: 'project', mode: 'test' });
    });

    test('sk_proj_X and sk_live_X are the same key (same hash)', () => {
      const proj = parseAuthorization(`Bearer sk_proj_${SECRET}`, 'project');
      const live = parseAuthorization(`Bearer sk_live_${SECRET}`, 'project');
      expect(proj.hash).toBe(live.hash);
      expect(proj.hash).toBe(sha256(SECRET));
    });

    test('different secrets give different hashes', () => {
      const a = parseAuthorization(`Bearer sk_live_${SECRET}`, 'project');
      const b = parseAuthorization(`Bearer sk_live_${SECRET.replace('A', 'B')}`, 'project');
      expect(a.hash).not.toBe(b.hash);
    });

    test('the Bearer scheme is case-insensitive and trailing whitespace is tolerated', () => {
      expect(parseAuthorization(`bearer sk_test_${SECRET}  `, 'project').kind).toEqual({ kind: 'project', mode: 'test' });
    });
  });
});

describe('hashSecret', () => {
  test('is the SHA-256 hex of the secret', () => {
    expect(hashSecret('abc')).toBe('ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');
  });
});

describe('generateKey', () => {
  test.each<['live' | 'test' | 'partner', string]>([
    ['live', 'sk_live_'],
    ['test', 'sk_test_'],
    ['partner', 'sk_partner_'],
  ])('a %s key starts with %s', (kind, prefix) => {
    expect(generateKey(kind).plaintext.startsWith(prefix)).toBe(true);
  });

  test('the secret is 43 base62 characters (at least 32 bytes of entropy)', () => {
    for (let i = 0; i < 50; i++) {
      const secret = generateKey('live').plaintext.slice('sk_live_'.length);
      expect(secret).toMatch(/^[0-9A-Za-z]{43}$/);
    }
    // 62^43 > 2^256: 43 base62 characters can carry 32 bytes.
    expect(43 * Math.log2(62)).toBeGreaterThanOrEqual(256);
  });

  test('every call returns a distinct key', () => {
    const keys = new Set(Array.from({ length: 200 }, () => generateKey('test').plaintext));
    expect(keys.size).toBe(200);
  });

  test('the secret uses the whole base62 alphabet across calls (not hex)', () => {
    const chars = new Set(Array.from({ length: 50 }, () => generateKey('live').plaintext.slice(8)).join(''));
    expect(chars.size).toBeGreaterThan(50);
  });

  test('the hash is the SHA-256 of the secret part only', () => {
    const { plaintext, hash } = generateKey('partner');
    expect(hash).toBe(sha256(plaintext.slice('sk_partner_'.length)));
    expect(hash).not.toBe(sha256(plaintext));
  });

  test.each<['live' | 'test' | 'partner', 'project' | 'partner']>([
    ['live', 'project'],
    ['test', 'project'],
    ['partner', 'partner'],
  ])('a generated %s key is accepted by parseAuthorization with the same hash', (kind, allowed) => {
    const { plaintext, hash } = generateKey(kind);
    expect(parseAuthorization(`Bearer ${plaintext}`, allowed).hash).toBe(hash);
  });
});
