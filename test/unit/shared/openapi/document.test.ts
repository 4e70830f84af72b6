import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { validate } from '@readme/openapi-parser';
import { routeTable } from '../../../../functions/route-table';
import { openApiDocument } from '../../../../composition/openapi/document';
import { documentExtras } from '../../../../composition/openapi/webhooks-section';

const ROOT = join(__dirname, '../../../..');
const committed = JSON.parse(readFileSync(join(ROOT, 'openapi/openapi.json'), 'utf8'));

type Operation = { operationId: string; responses: Record<string, { content?: Record<string, { schema: Record<string, unknown> }> }> };

describe('the OpenAPI document', () => {
  const document = openApiDocument(routeTable, documentExtras);
  const operations = () => Object.values(document.paths).flatMap((ops) => Object.values(ops) as Operation[]);

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
    for (const route of routeTable) {
      expect(document.paths[route.path]?.[route.method.toLowerCase()]).toBeDefined();
    }
  });

  it('gives every operation a unique operationId (the client names its methods by them)', () => {
    const ids = operations().map((op) => op.operationId);
    expect(new Set(ids).size).toBe(routeTable.length);
  });

  it('shares named shapes as components, referenced from the answers', () => {
    expect(Object.keys(document.components.schemas)).toEqual(expect.arrayContaining(['Error', 'PartnerError', 'SendAccepted']));
    expect(document.paths['/v1/send-email'].post).toMatchObject({ responses: { 200: { content: { 'application/json': { schema: { $ref: '#/components/schemas/SendAccepted' } } } } } });
    expect(JSON.stringify(document)).not.toContain('#/$defs/');
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
