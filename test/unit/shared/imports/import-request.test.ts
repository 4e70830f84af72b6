import { describeGolden, type GoldenCase } from '../../support/golden';
import { MAX_INLINE_BYTES, importCreateBodySchema, parseImportCreate } from '../../../../shared/audience/imports/import-request';
import { routeOf } from '../../../../functions/route-table';
import golden from './fixtures/import-create.golden.json';

/**
 * The schema-based parser answers as the hand-written one did on the seeded bodies of
 * fixtures/record-golden.ts, whose answers were recorded before the conversion.
 */
describeGolden('POST /v1/leads/imports', golden as GoldenCase[], ({ body }) => parseImportCreate(body));

describe('POST /v1/leads/imports: inline content', () => {
  it('refuses inline content over 4 MB (in bytes, not characters), naming the upload URL', () => {
    const chars = MAX_INLINE_BYTES / 2;
    expect(() => parseImportCreate({ format: 'csv', content: 'é'.repeat(chars + 1) })).toThrow('content is larger than 4 MB; upload the file to an upload URL instead (omit content)');
    expect(parseImportCreate({ format: 'csv', content: 'é'.repeat(chars) }).content).toHaveLength(MAX_INLINE_BYTES);
  });
});

describe('the route module of POST /v1/leads/imports validates with the parser\'s schema', () => {
  it('is the parser\'s schema', () => {
    expect(routeOf('POST /v1/leads/imports')).toMatchObject({ body: importCreateBodySchema });
  });
});
