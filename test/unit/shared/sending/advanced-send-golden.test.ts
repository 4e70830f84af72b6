import { parseAdvancedSendRequest } from '../../../../shared/sending/advanced-send-request';
import golden from './fixtures/advanced-send.golden.json';

/**
 * The schema-based advanced-send parser answers as the hand-written one did: on 1,506 seeded
 * requests (fixtures/advanced-send-samples.ts: a body and its `x-source` header), the same parsed
 * input or the same 400 message, in the same order of checks. The answers were recorded from the
 * hand-written parser (test/unit/shared/batches/fixtures/record-golden.ts) before its conversion.
 */
type Golden = { body: unknown; headers: Record<string, string>; ok?: unknown; error?: string }[];

const answer = (body: unknown, headers: Record<string, string>) => {
  try {
    return { ok: JSON.parse(JSON.stringify(parseAdvancedSendRequest(body, headers))) };
  } catch (error) {
    return { error: (error as Error).message };
  }
};

describe('POST /send-email: answers as the hand-written parser did', () => {
  const cases = golden as Golden;

  it('gives the same input or the same message on every recorded request', () => {
    const differing = cases.filter(({ body, headers, ...expected }) => JSON.stringify(answer(body, headers)) !== JSON.stringify(expected));
    expect(differing.slice(0, 3).map(({ body, headers, ...expected }) => ({ body, headers, expected, got: answer(body, headers) }))).toEqual([]);
  });

  it('records both accepted and refused requests', () => {
    expect(cases.filter((g) => 'ok' in g).length).toBeGreaterThan(100);
    expect(new Set(cases.map((g) => g.error)).size).toBeGreaterThan(40);
  });
});
