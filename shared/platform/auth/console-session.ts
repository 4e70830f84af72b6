/**
 * Console sessions: a key exchanged once for a random token that an HttpOnly, SameSite=Strict
 * cookie carries. The table keeps only the token's hash and the key's hash (never a key), so a
 * rotated or revoked key ends its sessions at once, and signing out ends one everywhere.
 */
import type { KeyMode } from '../security/api-keys';

/** The cookie's name: `__Host-` makes browsers refuse it unless Secure, Path=/ and host-only. */
export const SESSION_COOKIE = '__Host-mailroom_console';

/**
 * The header every cookie-authenticated call must carry. A cross-site form, link or image cannot
 * set a header, and a cross-origin script that tries needs a CORS preflight the API never grants:
 * with SameSite=Strict, a second guard against request forgery.
 */
export const CONSOLE_HEADER = 'x-mailroom-console';

/** How long a session lasts from sign-in (no sliding: an idle tab signs in again after a day's work). */
export const SESSION_SECONDS = 8 * 60 * 60;

/** Messages of the console's own 401s (the key's own 401s are part 5's). */
export const SESSION_MESSAGES = {
  ended: 'Console session expired or ended; sign in again',
  header: 'Cookie-authenticated requests must carry the X-Mailroom-Console header',
} as const;

/** A stored session: whose key it was made from, and until when it holds. */
export interface ConsoleSession {
  readonly key_hash: string;
  readonly key_kind: 'project' | 'partner';
  /** The project key's mode (live or test); absent for a partner key. */
  readonly mode?: KeyMode;
  readonly created_at: string;
  readonly expires_at: string;
}
