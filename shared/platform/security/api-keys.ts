import { createHash, randomBytes } from 'node:crypto';
import { unauthorized } from '../core/errors';

/** Key modes: live and test keys belong to a project; partner keys to an organization. */
export type KeyMode = 'live' | 'test';
export type KeyKind = { kind: 'project'; mode: KeyMode } | { kind: 'partner' };

/** The three 401 messages of part 5, to the letter. */
export const AUTH_MESSAGES = {
  missing: 'Missing or invalid API key. Use: Authorization: Bearer sk_proj_...',
  badPrefix: 'Invalid API key prefix. Expected sk_proj_*, sk_live_* or sk_test_*.',
  unknown: 'Invalid API key',
} as const;

/** The same three cases on `/v1/partner` paths, which take only partner keys (our wording; part 5 names none). */
export const PARTNER_AUTH_MESSAGES = {
  missing: 'Missing or invalid API key. Use: Authorization: Bearer sk_partner_...',
  badPrefix: 'Invalid API key prefix. Expected sk_partner_*.',
  unknown: 'Invalid API key',
} as const;

/** Prefix to key kind. `sk_proj_` and `sk_live_` are the same live key written two ways. */
export const PREFIX_KINDS: Readonly<Record<string, KeyKind>> = {
  sk_proj_: { kind: 'project', mode: 'live' },
  sk_live_: { kind: 'project', mode: 'live' },
  sk_test_: { kind: 'project', mode: 'test' },
  sk_partner_: { kind: 'partner' },
};

/** Issued prefixes; `sk_proj_` is accepted but never issued. */
const ISSUED_PREFIX = { live: 'sk_live_', test: 'sk_test_', partner: 'sk_partner_' } as const;

/** A key of the form `sk_<word>_<secret>`; anything else is "missing or invalid". */
const KEY_SHAPE = /^(sk_[a-z]+_)([A-Za-z0-9]{16,128})$/;

export interface ParsedKey {
  readonly kind: KeyKind;
  /** SHA-256 of the secret part; the prefix is not hashed, so sk_proj_X and sk_live_X are one key. */
  readonly hash: string;
}

/** Reads `Authorization: Bearer <key>` and classifies the key, or throws the matching 401. */
export function parseAuthorization(header: string | undefined, allowed: 'project' | 'partner'): ParsedKey {
  const messages = allowed === 'project' ? AUTH_MESSAGES : PARTNER_AUTH_MESSAGES;
  const match = /^Bearer\s+(\S+)\s*$/i.exec(header ?? '');
  const shape = match ? KEY_SHAPE.exec(match[1]) : null;
  if (!shape) throw unauthorized(messages.missing);
  const kind = PREFIX_KINDS[shape[1]];
  if (!kind || kind.kind !== allowed) throw unauthorized(messages.badPrefix);
  return { kind, hash: hashSecret(shape[2]) };
}

/** SHA-256 hex of a key's secret part: the only form in which keys are stored. */
export function hashSecret(secret: string): string {
  return createHash('sha256').update(secret).digest('hex');
}

/** A new key: the plaintext (shown once) and the hash to store. 32 random bytes, base62. */
export function generateKey(kind: 'live' | 'test' | 'partner'): { plaintext: string; hash: string } {
  const secret = toBase62(randomBytes(32));
  return { plaintext: `${ISSUED_PREFIX[kind]}${secret}`, hash: hashSecret(secret) };
}

const ALPHABET = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';

/** Base62 of a byte string (no padding, no ambiguous punctuation in keys). */
function toBase62(bytes: Buffer): string {
  let n = BigInt(`0x${bytes.toString('hex')}`);
  let out = '';
  while (n > 0n) {
    out = ALPHABET[Number(n % 62n)] + out;
    n /= 62n;
  }
  return out.padStart(43, '0');
}
