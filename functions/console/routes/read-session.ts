import { errors, json } from '../../../shared/platform/http/answers';
import { defineRoute } from '../../../shared/platform/http/route';
import { services } from '../../../composition/services';
import { consoleSessionSchema, projectSessionExample } from '../../../shared/tenancy/console/session-answers';
import { readSession } from '../../../shared/tenancy/console/session-service';
import { consoleSessionAccess } from './console-access';
import { tokenOf } from './session-request';

/** `GET /console/session`: who the session cookie stands for. */
export const readConsoleSession = defineRoute({
  method: 'GET',
  path: '/console/session',
  auth: 'public',
  throttle: 'links',
  summary: 'The console\'s session',
  description: 'Who the session cookie stands for; 401 when there is none, it expired or was ended, or its key was rotated or revoked.',
  answers: {
    200: json(consoleSessionSchema, 'The session', projectSessionExample),
    ...errors('public', { 401: 'No session, or it ended' }),
  },
  access: consoleSessionAccess,
  handle: async (request) => {
    const { db, clock } = services();
    return { status: 200, headers: { 'cache-control': 'no-store' }, body: await readSession(db, clock, tokenOf(request.cookies)) };
  },
});
