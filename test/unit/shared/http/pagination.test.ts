import { AppError } from '../../../../shared/platform/core/errors';
import { DEFAULT_PER_PAGE, MAX_PAGE, MAX_PER_PAGE, paginationBlock, parsePageRequest } from '../../../../shared/platform/http/pagination';

function errorOf(query: Record<string, string | undefined>): AppError {
  try {
    parsePageRequest(query);
  } catch (error) {
    expect(error).toBeInstanceOf(AppError);
    return error as AppError;
  }
  throw new Error(`parsePageRequest accepted ${JSON.stringify(query)}`);
}

describe('parsePageRequest (part 4.0: page default 1, per_page default 50, max 200)', () => {
  test('a page beyond 1,000,000 (whose offset no query could skip to) is a 400', () => {
    expect(parsePageRequest({ page: String(MAX_PAGE) }).page).toBe(MAX_PAGE);
    expect(errorOf({ page: String(MAX_PAGE + 1) })).toMatchObject({ status: 400, message: 'page must be at most 1000000' });
    expect(errorOf({ page: '99999999999999999999' }).status).toBe(400);
  });

  test('defaults are page 1 and per_page 50', () => {
    expect(parsePageRequest({})).toEqual({ page: 1, perPage: 50 });
    expect(DEFAULT_PER_PAGE).toBe(50);
    expect(MAX_PER_PAGE).toBe(200);
  });

  test('empty strings fall back to the defaults', () => {
    expect(parsePageRequest({ page: '', per_page: '' })).toEqual({ page: 1, perPage: 50 });
  });

  test('given values are read as numbers', () => {
    expect(parsePageRequest({ page: '3', per_page: '25' })).toEqual({ page: 3, perPage: 25 });
  });

  test('per_page 200 is accepted', () => {
    expect(parsePageRequest({ per_page: '200' }).perPage).toBe(200);
  });

  test('per_page 1 is accepted', () => {
    expect(parsePageRequest({ per_page: '1' }).perPage).toBe(1);
  });

  test('per_page 201 is refused with 400', () => {
    expect(errorOf({ per_page: '201' }).status).toBe(400);
  });

  test.each(['0', '-1', 'abc', '1.5', '2e1', ' '])('per_page %p is refused with 400', (value) => {
    expect(errorOf({ per_page: value }).status).toBe(400);
  });

  test.each(['0', '-1', 'abc', '1.5'])('page %p is refused with 400', (value) => {
    expect(errorOf({ page: value }).status).toBe(400);
  });
});

describe('paginationBlock', () => {
  test('carries page, per_page, total and total_pages', () => {
    expect(paginationBlock({ page: 2, perPage: 50 }, 101)).toEqual({ page: 2, per_page: 50, total: 101, total_pages: 3 });
  });

  test('total 0 gives total_pages 0', () => {
    expect(paginationBlock({ page: 1, perPage: 50 }, 0)).toEqual({ page: 1, per_page: 50, total: 0, total_pages: 0 });
  });

  test('an exact multiple does not add a page', () => {
    expect(paginationBlock({ page: 1, perPage: 50 }, 100).total_pages).toBe(2);
  });

  test('without total_pages (campaigns) the key is absent', () => {
    const block = paginationBlock({ page: 1, perPage: 50 }, 101, false);
    expect(block).toEqual({ page: 1, per_page: 50, total: 101 });
    expect('total_pages' in block).toBe(false);
  });
});
