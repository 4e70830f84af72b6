import { htmlPage } from '../../../shared/platform/http/answers';
import { defineRoute } from '../../../shared/platform/http/route';
import { consolePage as page } from '../../../shared/tenancy/console/console-page';
import { consolePageAccess } from './console-access';

/** `GET /console`: the console's page, which loads its script and signs in with a key. */
export const consolePage = defineRoute({
  method: 'GET',
  path: '/console',
  auth: 'public',
  throttle: 'links',
  summary: 'The console (web dashboard)',
  description: 'The operator\'s dashboard: a page that calls this API with a session made from a project or partner key (`POST /console/session`).',
  answers: { 200: htmlPage('The console\'s page') },
  access: consolePageAccess,
  handle: async () => {
    const { headers, body } = page();
    return { status: 200, headers, body };
  },
});
