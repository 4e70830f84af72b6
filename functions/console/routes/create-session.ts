import * as z from '../../../shared/platform/core/zod';
import { errors, json } from '../../../shared/platform/http/answers';
import { defineRoute } from '../../../shared/platform/http/route';
import { services } from '../../../composition/services';
import { consoleSessionSchema, projectSessionExample } from '../../../shared/tenancy/console/session-answers';
import { signIn } from '../../../shared/tenancy/console/session-service';
import { sessionCookie } from '../../../shared/platform/auth/console-session-cookie';
import { consoleSessionAccess } from './console-access';
import { requireConsoleHeader } from '../../../shared/platform/auth/console-session-auth';

const signInSchema = z.strictObject({
  api_key: z.string().check(z.meta({ description: 'A project key (sk_live_, sk_proj_, sk_test_) or a partner key (sk_partner_)' })),
});

/** `POST /console/session`: exchanges a key for the console's session cookie. */
export const createSession = defineRoute({
  method: 'POST',
  path: '/console/session',
  auth: 'public',
  throttle: 'links',
  summary: 'Sign in to the console',
  description:
    'Checks the key as its `Authorization` header would be checked, then sets a session cookie (`__Host-mailroom_console`: HttpOnly, Secure, SameSite=Strict, 8 hours) that stands for the key on this origin. The session keeps only the key\'s hash: rotating or revoking the key ends it. Calls made with the cookie must carry `X-Mailroom-Console: 1`, as this one must.',
  body: signInSchema,
  bodyExample: { api_key: 'sk_live_4f9Qm2ZkR7tXw1yB8cN3vL6pH0sJ5dGaE2uKqTzV9Ux' },
  answers: {
    201: json(consoleSessionSchema, 'Signed in: who the session is, and the Set-Cookie header', projectSessionExample),
    ...errors('public', {
      400: 'The body is not JSON, or lacks `api_key`',
      401: 'The key is unknown, of no known kind, or the request lacks the X-Mailroom-Console header',
      413: 'Request body over 5 MB',
    }),
  },
  access: consoleSessionAccess,
  handle: async (request) => {
    requireConsoleHeader(request.headers);
    const { db, clock } = services();
    const { token, session } = await signIn(db, clock, request.body.api_key);
    return { status: 201, headers: { 'cache-control': 'no-store' }, cookies: [sessionCookie(token)], body: session };
  },
});
