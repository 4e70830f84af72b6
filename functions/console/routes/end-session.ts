import { errors } from '../../../shared/platform/http/answers';
import { defineRoute } from '../../../shared/platform/http/route';
import { services } from '../../../composition/services';
import { signOut } from '../../../shared/tenancy/console/session-service';
import { clearedSessionCookie, sessionTokenOf } from '../../../shared/platform/auth/console-session-cookie';
import { consoleSessionAccess } from './console-access';
import { requireConsoleHeader } from '../../../shared/platform/auth/console-session-auth';

/** `DELETE /console/session`: signs out, ending the session wherever its cookie is. */
export const endSession = defineRoute({
  method: 'DELETE',
  path: '/console/session',
  auth: 'public',
  throttle: 'links',
  summary: 'Sign out of the console',
  description: 'Deletes the session (its cookie no longer works anywhere) and clears the cookie. Signing out with no session answers 204 too.',
  answers: {
    204: { description: 'Signed out' },
    ...errors('public', { 401: 'The request lacks the X-Mailroom-Console header' }),
  },
  access: consoleSessionAccess,
  handle: async (request) => {
    requireConsoleHeader(request.headers);
    const token = sessionTokenOf(request.cookies);
    if (token) await signOut(services().db, token);
    return { status: 204, headers: { 'cache-control': 'no-store' }, cookies: [clearedSessionCookie()], body: undefined };
  },
});
