import * as z from '../zod';
import { endpointGroups, type RouteDefinition } from '../routes';
import { errorBodySchema, listRouteSchemas, partnerErrorBodySchema, type RouteSchemas } from './api-schemas';

type JsonSchema = Record<string, unknown>;

/** A schema as JSON Schema 2020-12 (OpenAPI 3.1's dialect), as callers send it (`io: 'input'`). */
function jsonSchema(schema: z.ZodMiniType, io: 'input' | 'output'): JsonSchema {
  // Refinements (address checks, base64) have no JSON Schema form: the type around them is shown.
  const out = z.toJSONSchema(schema, { io, unrepresentable: 'any', target: 'draft-2020-12' }) as JsonSchema;
  delete out.$schema;
  return out;
}

/** `{name}` path parameters of an API Gateway path. */
const pathParameters = (path: string) =>
  [...path.matchAll(/\{(\w+)\}/g)].map(([, name]) => ({ name, in: 'path', required: true, schema: { type: 'string' } }));

/** The query parameters of an object schema (each a string). */
function queryParameters(query: RouteSchemas['query']) {
  if (!query) return [];
  const schema = jsonSchema(query, 'input') as { properties?: Record<string, JsonSchema>; required?: string[] };
  return Object.entries(schema.properties ?? {}).map(([name, s]) => ({ name, in: 'query', required: schema.required?.includes(name) ?? false, schema: s }));
}

const security = (route: RouteDefinition) => (route.auth === 'public' ? [] : [{ [route.auth === 'partner' ? 'partnerKey' : 'projectKey']: [] }]);

/** One operation of the document. */
function operation(route: RouteDefinition, schemas: RouteSchemas) {
  const errorSchema = route.auth === 'partner' ? { $ref: '#/components/schemas/PartnerError' } : { $ref: '#/components/schemas/Error' };
  const response = schemas.response;
  const contentType = response?.contentType ?? 'application/json';
  return {
    operationId: `${route.method.toLowerCase()}${route.path.replace(/\{(\w+)\}/g, 'By_$1').replace(/[^A-Za-z0-9]+(.)?/g, (_, c: string | undefined) => (c ?? '').toUpperCase())}`,
    summary: schemas.summary,
    tags: [route.group],
    security: security(route),
    parameters: [...pathParameters(route.path), ...queryParameters(schemas.query)],
    ...(schemas.body
      ? {
          requestBody: {
            required: true,
            content: { 'application/json': { schema: jsonSchema(schemas.body, 'input'), ...(schemas.example === undefined ? {} : { example: schemas.example }) } },
          },
        }
      : {}),
    responses: {
      [String(response?.status ?? 200)]: {
        description: schemas.summary,
        ...(response && response.status !== 302 ? { content: { [contentType]: { schema: jsonSchema(response.body, 'output') } } } : {}),
      },
      ...(route.auth === 'public' ? {} : { '400': { description: 'Invalid request (part 7 messages)', content: { 'application/json': { schema: errorSchema } } } }),
      ...(route.auth === 'public' ? {} : { '401': { description: 'Missing, malformed or unknown key', content: { 'application/json': { schema: errorSchema } } } }),
    },
  };
}

/** The OpenAPI 3.1 document of every route of the route table, drawn from the schema registry. */
export function openApiDocument(options: { serverUrl?: string } = {}) {
  const paths: Record<string, Record<string, unknown>> = {};
  for (const { route, schemas } of listRouteSchemas()) {
    paths[route.path] = { ...paths[route.path], [route.method.toLowerCase()]: operation(route, schemas) };
  }
  return {
    openapi: '3.1.0',
    info: {
      title: 'Mailroom API',
      version: '1.0.0',
      description: 'Self-hostable email API on Amazon SES. Authenticate with `Authorization: Bearer <API_KEY>` (sk_live_, sk_proj_, sk_test_; sk_partner_ on /v1/partner).',
    },
    ...(options.serverUrl ? { servers: [{ url: options.serverUrl }] } : {}),
    tags: Object.entries(endpointGroups).map(([name, group]) => ({ name, description: group.description })),
    paths,
    components: {
      securitySchemes: {
        projectKey: { type: 'http', scheme: 'bearer', description: 'A project key: sk_live_, sk_proj_ or sk_test_' },
        partnerKey: { type: 'http', scheme: 'bearer', description: 'A partner key: sk_partner_' },
      },
      schemas: { Error: jsonSchema(errorBodySchema, 'output'), PartnerError: jsonSchema(partnerErrorBodySchema, 'output') },
    },
  };
}
