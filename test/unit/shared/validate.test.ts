import { AppError } from '../../../shared/platform/core/errors';
import { parseRequest, refusedAs } from '../../../shared/platform/core/validate';
import * as z from '../../../shared/platform/core/zod';

const schema = z
  .object(
    {
      a: z.string({ error: 'a must be a string' }),
      list: z.array(z.object({ x: z.string({ error: '{path} must be a string' }) }), { error: 'list must be an array' }).check(z.maxLength(1, 'list is too long')),
      b: z.string({ error: 'b must be a string' }),
    },
    { error: 'Request body must be a JSON object' },
  )
  .check(z.refine((v: Record<string, unknown>) => v.a !== undefined, { message: 'Missing required fields: a', when: ({ value }) => typeof value === 'object' && value !== null }));

const messageOf = (value: unknown): string => {
  try {
    parseRequest(schema, value);
  } catch (error) {
    expect(error).toBeInstanceOf(AppError);
    return (error as AppError).message;
  }
  throw new Error('parsed');
};

describe('parseRequest: the first problem, in the spec order', () => {
  it('answers a body that is no object with the whole-body message', () => {
    expect(messageOf([])).toBe('Request body must be a JSON object');
  });

  it('puts a whole-body problem (a missing field) before any field problem', () => {
    expect(messageOf({ b: 1 })).toBe('Missing required fields: a');
  });

  it('takes fields in the schema key order', () => {
    expect(messageOf({ a: 'x', list: [{ x: 1 }], b: 1 })).toBe('list[0].x must be a string');
  });

  it('puts a list count before its items', () => {
    expect(messageOf({ a: 'x', list: [{ x: 1 }, { x: 'y' }], b: 'z' })).toBe('list is too long');
  });

  it('names a nested field by its place', () => {
    expect(messageOf({ a: 'x', list: [{ x: 2 }] })).toBe('list[0].x must be a string');
  });

  it('returns the parsed value when nothing is wrong', () => {
    expect(parseRequest(schema, { a: 'x', list: [], b: 'z' })).toEqual({ a: 'x', list: [], b: 'z' });
  });
});

describe('parseRequest: a check that carries its own code and status', () => {
  const coded = z.object({ name: z.string({ error: 'name must be a string' }) }).check(
    z.refine((v: { name: string }) => v.name.trim() !== '', { message: 'name is required', params: refusedAs('MISSING_NAME') }),
    z.refine((v: { name: string }) => v.name !== 'taken', { message: 'name is taken', params: refusedAs('NAME_TAKEN', 409) }),
  );
  const refusalOf = (value: unknown, refuse?: (message: string) => Error) => {
    try {
      parseRequest(coded, value, refuse);
    } catch (error) {
      const { status, message, code } = error as AppError;
      return { status, message, code };
    }
    throw new Error('parsed');
  };
  const invalidInput = (message: string) => new AppError(400, message, 'INVALID_INPUT');

  it('answers with the check\'s code and status, not the route\'s default refusal', () => {
    expect(refusalOf({ name: ' ' }, invalidInput)).toEqual({ status: 400, message: 'name is required', code: 'MISSING_NAME' });
    expect(refusalOf({ name: 'taken' }, invalidInput)).toEqual({ status: 409, message: 'name is taken', code: 'NAME_TAKEN' });
  });

  it('leaves other problems to the route\'s refusal', () => {
    expect(refusalOf({ name: 5 }, invalidInput)).toEqual({ status: 400, message: 'name must be a string', code: 'INVALID_INPUT' });
    expect(refusalOf({ name: 5 })).toEqual({ status: 400, message: 'name must be a string', code: undefined });
  });
});
