import { answerOf, goldenDifferences, type GoldenCase } from './golden';
import { AppError } from '../../../shared/platform/core/errors';

const parse = ({ body }: Record<string, unknown>) => {
  if (body === 'refused') throw new AppError(400, 'no', 'NO_CODE');
  return { got: body };
};

describe('golden answers: the one recorder and runner of the golden tests', () => {
  it('records a refusal\'s message, and the fields asked for in their order', () => {
    expect(answerOf(() => parse({ body: 'refused' }))).toEqual({ error: 'no' });
    expect(JSON.stringify(answerOf(() => parse({ body: 'refused' }), ['status', 'code']))).toBe('{"error":"no","status":400,"code":"NO_CODE"}');
    expect(answerOf(() => parse({ body: 1 }))).toEqual({ ok: { got: 1 } });
  });

  it('finds a case answered differently: another message, another code, or an accepted body', () => {
    const golden: GoldenCase[] = [
      { body: 1, ok: { got: 1 } },
      { body: 'refused', error: 'no', status: 400, code: 'OTHER' },
      { body: 2, error: 'was refused' },
    ];
    expect(goldenDifferences(golden, parse, ['status', 'code']).map((d) => d.inputs)).toEqual(['{"body":"refused"}', '{"body":2}']);
    expect(goldenDifferences(golden.slice(0, 1), parse)).toEqual([]);
  });
});
