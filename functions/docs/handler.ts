import document from '../../openapi/openapi.json';
import { apiHandler } from '../../shared/http/api-handler';
import { publicBaseUrl } from '../../shared/http/api-types';
import { docsPage } from '../../shared/openapi/docs-page';
import { rendererScript } from '../../shared/openapi/renderer-asset';

/** Endpoint group `docs`: the OpenAPI document (built by `npm run openapi`, bundled) and its reference page. */
export const handler = apiHandler('docs', {
  'GET /openapi.json': async (request) => {
    const base = publicBaseUrl(request);
    return { status: 200, headers: { 'cache-control': 'public, max-age=300' }, body: base ? { ...document, servers: [{ url: base }] } : document };
  },

  'GET /docs': async () => {
    const page = docsPage();
    return { status: 200, headers: page.headers, body: page.body };
  },

  'GET /docs/rapidoc.js': async (request) => {
    const script = rendererScript(request.headers['accept-encoding']);
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
