import { parseRequest } from '../../../../shared/platform/core/validate';
import { searchPrefix, suppressionListQuerySchema } from '../../../../shared/mail-pipeline/suppression/suppression-request';

describe('GET /v1/suppressions?search= (addresses starting with the text)', () => {
  test('is read trimmed and lowercased, as the addresses are kept; an empty or blank search searches nothing', () => {
    expect(searchPrefix('  Bob@Example.')).toBe('bob@example.');
    expect(searchPrefix('')).toBeUndefined();
    expect(searchPrefix('   ')).toBeUndefined();
    expect(searchPrefix(undefined)).toBeUndefined();
  });

  test('a search longer than an address can be is refused with 400', () => {
    expect(parseRequest(suppressionListQuerySchema, { search: `${'a'.repeat(249)}@b.co` })).toEqual({ search: `${'a'.repeat(249)}@b.co` });
    expect(() => parseRequest(suppressionListQuerySchema, { search: 'a'.repeat(255) })).toThrow('search must be at most 254 characters');
  });
});
