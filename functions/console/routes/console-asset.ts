import * as z from '../../../shared/platform/core/zod';
import { defineRoute } from '../../../shared/platform/http/route';
import { CONSOLE_FILES, consoleFile, hashOf, type ConsoleFile } from '../../../shared/tenancy/console/console-assets';
import { consolePageAccess } from './console-access';

/** The route of one of the console's files, gzipped when the client takes it. */
function assetRoute(file: ConsoleFile, summary: string) {
  const contentType = CONSOLE_FILES[file];
  return defineRoute({
    method: 'GET',
    path: `/console/assets/${file}`,
    auth: 'public',
    throttle: 'links',
    summary,
    description: 'Cached for a year when asked for with the build\'s hash (`?v=`, as the page asks), otherwise revalidated each time.',
    answers: { 200: { description: 'The file (gzip-encoded when the client accepts it)', schema: z.string(), contentType: contentType.split(';')[0] } },
    access: consolePageAccess,
    handle: async (request) => {
      const { body, gzip } = consoleFile(file, request.headers['accept-encoding']);
      // The page names each file with its build's hash: such a URL never changes content.
      const current = request.query.v === hashOf(file);
      return {
        status: 200,
        headers: {
          'content-type': contentType,
          'cache-control': current ? 'public, max-age=31536000, immutable' : 'no-cache',
          'x-content-type-options': 'nosniff',
          vary: 'accept-encoding',
          ...(gzip ? { 'content-encoding': 'gzip' } : {}),
        },
        body,
      };
    },
  });
}

/** `GET /console/assets/app.js`: the console's script. */
export const consoleScript = assetRoute('app.js', 'The console\'s script');

/** `GET /console/assets/app.css`: the console's stylesheet. */
export const consoleStylesheet = assetRoute('app.css', 'The console\'s stylesheet');
