import * as z from '../../shared/platform/core/zod';
import { endpointGroups } from '../../shared/platform/core/routes';
import { allAnswers } from '../../shared/platform/http/answers';
import type { RouteDescription } from '../../shared/platform/http/route';

type JsonSchema = Record<string, unknown>;

/**
 * Named schemas (`z.meta({ id })`) found while converting, shared as `#/components/schemas/<id>`.
 * zod puts each into the converted schema's `$defs`; they are moved here and their references
 * rewritten, so that the client gets one named type per shared shape.
 */
class Components {
  readonly schemas: Record<string, JsonSchema> = {};

  /** A schema as JSON Schema 2020-12 (OpenAPI 3.1's dialect): as callers send it (`input`) or as the API answers (`output`). */
  convert(schema: z.ZodMiniType, io: 'input' | 'output'): JsonSchema {
    // Refinements (address checks, base64) have no JSON Schema form: the type around them is shown.
    const out = z.toJSONSchema(schema, { io, unrepresentable: 'any', target: 'draft-2020-12' }) as JsonSchema;
    delete out.$schema;
    const defs = (out.$defs ?? {}) as Record<string, JsonSchema>;
    delete out.$defs;
    for (const [id, def] of Object.entries(defs)) this.add(id, rewriteRefs(def) as JsonSchema);
    return rewriteRefs(out) as JsonSchema;
  }

  private add(id: string, schema: JsonSchema): void {
    const known = this.schemas[id];
    if (known && JSON.stringify(known) !== JSON.stringify(schema)) throw new Error(`Two different schemas are named ${id}`);
    this.schemas[id] = schema;
  }
}

/** `#/$defs/X` as `#/components/schemas/X`, everywhere in a converted schema. */
function rewriteRefs(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(rewriteRefs);
  if (value === null || typeof value !== 'object') return value;
  return Object.fromEntries(
    Object.entries(value).map(([k, v]) => [k, k === '$ref' && typeof v === 'string' ? v.replace('#/$defs/', '#/components/schemas/') : rewriteRefs(v)]),
  );
}

/**
 * A media type's example as a one-entry `examples` map. RapiDoc 9.3.8 reads a singular `example`
 * object as if it were such a map, so it never shows one and throws on a top-level null field
 * ("Cannot read properties of null (reading 'value')"), which stopped the docs page.
 */
const examples = (value: unknown) => (value === undefined ? {} : { examples: { example: { value } } });

/** `{name}` path parameters of an API Gateway path. */
const pathParameters = (path: string) =>
  [...path.matchAll(/\{(\w+)\}/g)].map(([, name]) => ({ name, in: 'path', required: true, schema: { type: 'string' } }));

/** The query parameters of an object schema (each a string). */
function queryParameters(components: Components, query: RouteDescription['query']) {
  if (!query) return [];
  const schema = components.convert(query, 'input') as { properties?: Record<string, JsonSchema>; required?: string[] };
  return Object.entries(schema.properties ?? {}).map(([name, s]) => ({ name, in: 'query', required: schema.required?.includes(name) ?? false, schema: s }));
}

const security = (route: RouteDescription) => (route.auth === 'public' ? [] : [{ [route.auth === 'partner' ? 'partnerKey' : 'projectKey']: [] }]);

/** `POST /v1/send-email` as `postV1SendEmail`. */
export const operationId = (route: Pick<RouteDescription, 'method' | 'path'>) =>
  `${route.method.toLowerCase()}${route.path.replace(/\{(\w+)\}/g, 'By_$1').replace(/[^A-Za-z0-9]+(.)?/g, (_, c: string | undefined) => (c ?? '').toUpperCase())}`;

/** One operation of the document: every answer the route gives, each with its schema and example. */
function operation(components: Components, route: RouteDescription) {
  const responses = Object.fromEntries(
    Object.entries(allAnswers(route)).map(([status, answer]) => {
      const contentType = answer.contentType ?? 'application/json';
      const content = answer.schema
        ? { content: { [contentType]: { schema: components.convert(answer.schema, 'output'), ...examples(answer.example) } } }
        : {};
      return [status, { description: answer.description, ...content }];
    }),
  );
  return {
    operationId: operationId(route),
    summary: route.summary,
    ...(route.description ? { description: route.description } : {}),
    tags: [route.group],
    security: security(route),
    parameters: [...pathParameters(route.path), ...queryParameters(components, route.query)],
    ...(route.body
      ? {
          requestBody: {
            required: true,
            content: { 'application/json': { schema: components.convert(route.body, 'input'), ...examples(route.bodyExample) } },
          },
        }
      : {}),
    responses,
  };
}

/** What the document says besides its operations: the webhooks section, its version. */
export interface DocumentExtras {
  /** The deployment's own URL, when the document is served by it. */
  readonly serverUrl?: string;
  /** The `webhooks` section (OpenAPI 3.1): every event the service posts, by name. */
  readonly webhooks?: (components: { convert(schema: z.ZodMiniType, io: 'input' | 'output'): JsonSchema }) => Record<string, unknown>;
  /** Tags besides the endpoint groups' (the webhooks' own). */
  readonly tags?: readonly { name: string; description: string }[];
}

/** The document's version; the typed client's package follows it. */
export const API_VERSION = '1.0.0';

/** The OpenAPI 3.1 document of every route of the route table, drawn from the route modules. */
export function openApiDocument(routes: readonly RouteDescription[], options: DocumentExtras = {}) {
  const components = new Components();
  const paths: Record<string, Record<string, unknown>> = {};
  for (const route of routes) {
    paths[route.path] = { ...paths[route.path], [route.method.toLowerCase()]: operation(components, route) };
  }
  const webhooks = options.webhooks?.(components);
  return {
    openapi: '3.1.0',
    info: {
      title: 'Mailroom API',
      version: API_VERSION,
      description: 'Self-hostable email API on Amazon SES. Authenticate with `Authorization: Bearer <API_KEY>` (sk_live_, sk_proj_, sk_test_; sk_partner_ on /v1/partner).',
    },
    ...(options.serverUrl ? { servers: [{ url: options.serverUrl }] } : {}),
    tags: [...Object.entries(endpointGroups).map(([name, group]) => ({ name, description: group.description })), ...(options.tags ?? [])],
    paths,
    ...(webhooks ? { webhooks } : {}),
    components: {
      securitySchemes: {
        projectKey: { type: 'http', scheme: 'bearer', description: 'A project key: sk_live_, sk_proj_ or sk_test_' },
        partnerKey: { type: 'http', scheme: 'bearer', description: 'A partner key: sk_partner_' },
      },
      schemas: Object.fromEntries(Object.entries(components.schemas).sort(([a], [b]) => a.localeCompare(b))),
    },
  };
}
