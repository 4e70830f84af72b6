/** The session cookie on the wire: reading it from a request, writing and clearing it. */
import { createHash, randomBytes } from 'node:crypto';
import { SESSION_COOKIE, SESSION_SECONDS } from './console-session';

/** A new session token (32 random bytes, base64url) and the hash it is stored under. */
export function newSessionToken(): { token: string; hash: string } {
  const token = randomBytes(32).toString('base64url');
  return { token, hash: sessionTokenHash(token) };
}

/** The stored form of a token: its SHA-256, so a read of the table yields no usable session. */
export function sessionTokenHash(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}

/**
 * The session token a request carries, if any: API Gateway's payload 2.0 gives the cookies apart from
 * the headers, one `name=value` each (the local server too). A value of any other shape is ignored,
 * never looked up.
 */
export function sessionTokenOf(cookies: readonly string[] | undefined): string | undefined {
  for (const pair of cookies ?? []) {
    const at = pair.indexOf('=');
    if (at < 0 || pair.slice(0, at).trim() !== SESSION_COOKIE) continue;
    const value = pair.slice(at + 1).trim();
    if (/^[A-Za-z0-9_-]{43}$/.test(value)) return value;
  }
  return undefined;
}

/** The Set-Cookie of a new session: script cannot read it, no other site's request carries it. */
export function sessionCookie(token: string): string {
  return `${SESSION_COOKIE}=${token}; Path=/; Max-Age=${SESSION_SECONDS}; HttpOnly; Secure; SameSite=Strict`;
}

/** The Set-Cookie that makes the browser forget the session. */
export function clearedSessionCookie(): string {
  return `${SESSION_COOKIE}=; Path=/; Max-Age=0; HttpOnly; Secure; SameSite=Strict`;
}
