import * as z from '../../../shared/platform/core/zod';
import { publicBaseUrl } from '../../../shared/platform/http/api-types';
import { openApiDocumentAsset } from '../../../composition/openapi/document-asset';
import { defineRoute } from '../../../shared/platform/http/route';
import { docsAccess } from './docs-access';

/** An OpenAPI 3.1 document: its version, its info and its paths (the rest as the document has them). */
const openApiDocumentSchema = z
  .looseObject({
    openapi: z.string().check(z.meta({ examples: ['3.1.0'] })),
    info: z.looseObject({ title: z.string(), version: z.string() }),
    servers: z.optional(z.array(z.looseObject({ url: z.string() }))),
    paths: z.record(z.string(), z.unknown()),
  })
  .check(z.meta({ id: 'OpenApiDocument', description: 'This API described in OpenAPI 3.1' }));

/** `GET /openapi.json`: this document (built by `npm run openapi`, copied next to the bundle), naming the address it was reached at. */
export const openApiDocument = defineRoute({
  method: 'GET',
  path: '/openapi.json',
  auth: 'public',
  throttle: 'links',
  summary: 'This document',
  description: 'Its `servers` name the address the request reached.',
  answers: {
    200: {
      description: 'The OpenAPI document',
      schema: openApiDocumentSchema,
      example: { openapi: '3.1.0', info: { title: 'Email API', version: '1.0.0' }, servers: [{ url: 'https://api.mail.example.com' }], paths: {} },
    },
  },
  access: docsAccess,
  handle: async (request) => {
    const document = openApiDocumentAsset();
    const base = publicBaseUrl(request);
    return { status: 200, headers: { 'cache-control': 'public, max-age=300' }, body: base ? { ...document, servers: [{ url: base }] } : document };
  },
});
