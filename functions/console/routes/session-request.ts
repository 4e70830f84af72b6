/** The session token of a session route's request. */
import { SESSION_MESSAGES } from '../../../shared/platform/auth/console-session';
import { sessionTokenOf } from '../../../shared/platform/auth/console-session-cookie';
import { unauthorized } from '../../../shared/platform/core/errors';

/** The session token of a request's cookie, or the console's 401. */
export function tokenOf(cookies: readonly string[] | undefined): string {
  const token = sessionTokenOf(cookies);
  if (!token) throw unauthorized(SESSION_MESSAGES.ended);
  return token;
}
