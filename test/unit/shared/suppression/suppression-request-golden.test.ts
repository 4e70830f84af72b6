import { parseAddSuppressions, parseEmails, parseReasonFilter } from '../../../../shared/suppression/suppression-request';
import addGolden from './fixtures/add-suppressions.golden.json';
import removeGolden from './fixtures/remove-suppressions.golden.json';
import reasonGolden from './fixtures/reason-filter.golden.json';

/**
 * The schema-based suppression parsers answer as the hand-written ones did: on 506 seeded bodies
 * (fixtures/suppression-samples.ts) and 10 `reason` filters, the same parsed input or the same 400
 * message, recorded from the hand-written parsers (fixtures/record-golden.ts) before their conversion.
 */
type Golden = { body?: unknown; ok?: unknown; error?: string }[];

const answer = (parse: (input: unknown) => unknown, input: unknown) => {
  try {
    return { ok: JSON.parse(JSON.stringify(parse(input) ?? null)) };
  } catch (error) {
    return { error: (error as Error).message };
  }
};

describe.each([
  ['POST /v1/suppressions', parseAddSuppressions, addGolden as Golden, 100],
  ['POST /v1/suppressions/remove', parseEmails, removeGolden as Golden, 100],
  ['GET /v1/suppressions?reason=', (reason: unknown) => parseReasonFilter(reason as string | undefined), reasonGolden as Golden, 5],
])('%s: answers as the hand-written parser did', (_route, parse, golden, accepted) => {
  it('gives the same input or the same message on every recorded input', () => {
    const differing = golden.filter(({ body, ...expected }) => JSON.stringify(answer(parse, body)) !== JSON.stringify(expected));
    expect(differing.slice(0, 3).map(({ body, ...expected }) => ({ body, expected, got: answer(parse, body) }))).toEqual([]);
  });

  it('records both accepted and refused inputs', () => {
    expect(golden.filter((g) => 'ok' in g).length).toBeGreaterThanOrEqual(accepted);
    expect(golden.some((g) => g.error !== undefined)).toBe(true);
  });
});
