import { groupRoutes } from '../../../shared/platform/http/route';
import { docsPage } from './docs-page';
import { openApiDocument } from './openapi-document';
import { rendererScript } from './renderer-script';

/** Endpoint group `docs`: the OpenAPI document and its reference page. */
export const docsRoutes = groupRoutes('docs', [openApiDocument, docsPage, rendererScript]);
