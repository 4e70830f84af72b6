import * as z from '../../../shared/platform/core/zod';
import { defineRoute } from '../../../shared/platform/http/route';
import { rendererScript as bundledRenderer } from '../../../composition/openapi/renderer-asset';
import { docsAccess } from './docs-access';

/** `GET /docs/rapidoc.js`: the reference page's renderer, gzipped for a client that takes gzip. */
export const rendererScript = defineRoute({
  method: 'GET',
  path: '/docs/rapidoc.js',
  auth: 'public',
  throttle: 'links',
  summary: 'The reference page\'s renderer (RapiDoc, bundled)',
  answers: { 200: { description: 'The script (gzip-encoded when the client accepts it)', schema: z.string(), contentType: 'text/javascript' } },
  access: docsAccess,
  handle: async (request) => {
    const script = bundledRenderer(request.headers['accept-encoding']);
    return {
      status: 200,
      headers: {
        'content-type': 'text/javascript; charset=utf-8',
        'cache-control': 'public, max-age=86400',
        'x-content-type-options': 'nosniff',
        vary: 'accept-encoding',
        ...(script.gzip ? { 'content-encoding': 'gzip' } : {}),
      },
      body: script.body,
    };
  },
});
