import { parseActivityFilters } from '../../../../shared/activity/activity-list';
import golden from './fixtures/activity-query.golden.json';

/**
 * The schema-based filter parser of `GET /v1/activity` answers as the hand-written one did: on 501
 * seeded query strings (fixtures/activity-query-samples.ts), the same filters or the same refusal
 * (status, message, code and extra fields), recorded (fixtures/record-golden.ts) before its conversion.
 */
type Golden = { query: Record<string, string>; ok?: unknown; error?: string }[];

const answer = (query: Record<string, string>) => {
  try {
    return { ok: JSON.parse(JSON.stringify(parseActivityFilters(query))) };
  } catch (error) {
    const { status, message, code, extra } = error as { status: number; message: string; code?: string; extra?: unknown };
    return { error: message, status, code, extra };
  }
};

describe('GET /v1/activity query: answers as the hand-written parser did', () => {
  const cases = golden as Golden;

  it('gives the same filters or the same refusal on every recorded query', () => {
    const differing = cases.filter(({ query, ...expected }) => JSON.stringify(answer(query)) !== JSON.stringify(expected));
    expect(differing.slice(0, 3).map(({ query, ...expected }) => ({ query, expected, got: answer(query) }))).toEqual([]);
  });

  it('records both accepted and refused queries', () => {
    expect(cases.filter((g) => 'ok' in g).length).toBeGreaterThan(100);
    expect(new Set(cases.map((g) => g.error)).size).toBeGreaterThan(4);
  });
});
