/** What the session routes share: the console header check and the cookie of a request. */
import { CONSOLE_HEADER, SESSION_MESSAGES } from '../../../shared/auth/console-session';
import { sessionTokenOf } from '../../../shared/auth/console-session-cookie';
import { unauthorized } from '../../../shared/errors';

/** Refuses a request without the console's header: what a cross-site form post would be. */
export function requireConsoleHeader(headers: Readonly<Record<string, string | undefined>>): void {
  if (headers[CONSOLE_HEADER] !== '1') throw unauthorized(SESSION_MESSAGES.header);
}

/** The session token of a request's cookie, or the console's 401. */
export function tokenOf(cookies: readonly string[] | undefined, headers: Readonly<Record<string, string | undefined>>): string {
  const token = sessionTokenOf(cookies, headers.cookie);
  if (!token) throw unauthorized(SESSION_MESSAGES.ended);
  return token;
}
