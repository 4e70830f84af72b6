import { parseBatchRequest } from '../../../../shared/batches/batch-request';
import golden from './fixtures/batch.golden.json';

/**
 * The schema-based batch parser answers as the hand-written one did: on 1,208 seeded bodies
 * (fixtures/batch-samples.ts), the same parsed input or the same 400 message, in the same order of
 * checks. The answers were recorded from the hand-written parser (fixtures/record-golden.ts) before
 * its conversion.
 */
type Golden = { body: unknown; ok?: unknown; error?: string }[];

const answer = (body: unknown) => {
  try {
    return { ok: JSON.parse(JSON.stringify(parseBatchRequest(body))) };
  } catch (error) {
    return { error: (error as Error).message };
  }
};

describe('POST /v1/send-batch: answers as the hand-written parser did', () => {
  const cases = golden as Golden;

  it('gives the same input or the same message on every recorded body', () => {
    const differing = cases.filter(({ body, ...expected }) => JSON.stringify(answer(body)) !== JSON.stringify(expected));
    expect(differing.slice(0, 3).map(({ body, ...expected }) => ({ body: JSON.stringify(body).slice(0, 500), expected, got: answer(body) }))).toEqual([]);
  });

  it('records both accepted and refused bodies', () => {
    expect(cases.filter((g) => 'ok' in g).length).toBeGreaterThan(100);
    expect(new Set(cases.map((g) => g.error)).size).toBeGreaterThan(30);
  });
});
