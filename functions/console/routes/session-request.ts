/** The session token of a session route's request. */
import { SESSION_MESSAGES } from '../../../shared/auth/console-session';
import { sessionTokenOf } from '../../../shared/auth/console-session-cookie';
import { unauthorized } from '../../../shared/errors';

/** The session token of a request's cookie, or the console's 401. */
export function tokenOf(cookies: readonly string[] | undefined): string {
  const token = sessionTokenOf(cookies);
  if (!token) throw unauthorized(SESSION_MESSAGES.ended);
  return token;
}
