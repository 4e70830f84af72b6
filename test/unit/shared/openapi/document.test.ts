import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { validate } from '@readme/openapi-parser';
import { openApiDocument } from '../../../../shared/openapi/document';
import { describedButNotRouted, listRouteSchemas } from '../../../../shared/openapi/api-schemas';
import { routeKey, routes } from '../../../../shared/routes';

const ROOT = join(__dirname, '../../../..');
const committed = JSON.parse(readFileSync(join(ROOT, 'openapi/openapi.json'), 'utf8'));

describe('the OpenAPI document', () => {
  const document = openApiDocument();

  it('validates as OpenAPI 3.1', async () => {
    expect(document.openapi).toBe('3.1.0');
    const result = await validate(structuredClone(document) as never);
    expect(result.valid ? [] : result.errors).toEqual([]);
  });

  it('is checked by a validator that refuses a broken document', async () => {
    const broken = structuredClone(document) as { paths: Record<string, Record<string, { parameters?: unknown }>> };
    broken.paths['/v1/send-batch/{batchId}'].get.parameters = [{ name: 'batchId', in: 'path' }];
    expect((await validate(broken as never)).valid).toBe(false);
  });

  it('has every route of the route table, with its method', () => {
    for (const route of routes) {
      expect(document.paths[route.path]?.[route.method.toLowerCase()]).toBeDefined();
    }
  });

  it('describes no route the route table lacks', () => {
    expect(describedButNotRouted()).toEqual([]);
  });

  it('has examples that pass their schemas', () => {
    const withExamples = listRouteSchemas().filter(({ schemas }) => schemas.example !== undefined);
    expect(withExamples.length).toBeGreaterThanOrEqual(8);
    for (const { route, schemas } of withExamples) {
      const result = schemas.body!.safeParse(schemas.example);
      expect({ route: routeKey(route), issues: result.success ? [] : result.error.issues }).toEqual({ route: routeKey(route), issues: [] });
    }
  });

  it('gives every operation a unique operationId (the client names its methods by them)', () => {
    const ids = Object.values(document.paths).flatMap((ops) => Object.values(ops).map((op) => (op as { operationId: string }).operationId));
    expect(new Set(ids).size).toBe(routes.length);
  });

  it('is the committed openapi/openapi.json (run `npm run openapi` after changing a schema)', () => {
    expect(committed).toEqual(JSON.parse(JSON.stringify(document)));
  });

  it('marks project routes with the project key and partner routes with the partner key', () => {
    expect(document.paths['/v1/send-email'].post).toMatchObject({ security: [{ projectKey: [] }] });
    expect(document.paths['/v1/partner/whoami'].get).toMatchObject({ security: [{ partnerKey: [] }] });
    expect(document.paths['/docs'].get).toMatchObject({ security: [] });
  });
});
