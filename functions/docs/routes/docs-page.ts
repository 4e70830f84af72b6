import { htmlPage } from '../../../shared/platform/http/answers';
import { defineRoute } from '../../../shared/platform/http/route';
import { docsPage as referencePage } from '../../../composition/openapi/docs-page';
import { docsAccess } from './docs-access';

/** `GET /docs`: the API reference page, which renders /openapi.json with the bundled renderer. */
export const docsPage = defineRoute({
  method: 'GET',
  path: '/docs',
  auth: 'public',
  throttle: 'links',
  summary: 'The API reference page',
  answers: { 200: htmlPage('The reference page') },
  access: docsAccess,
  handle: async () => {
    const page = referencePage();
    return { status: 200, headers: page.headers, body: page.body };
  },
});
