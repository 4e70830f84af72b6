import { parseBatchReschedule } from '../../../../shared/batches/batch-reschedule-request';
import { parseRescheduleRequest } from '../../../../shared/scheduling/scheduled-send-request';
import batchGolden from './fixtures/batch-reschedule.golden.json';
import scheduledGolden from './fixtures/scheduled-send-reschedule.golden.json';
import { GOLDEN_NOW } from './fixtures/reschedule-samples';

/**
 * The schema-based reschedule parsers answer as the hand-written ones did: on 406 seeded bodies
 * (fixtures/reschedule-samples.ts), the same parsed input or the same refusal (status, message,
 * code and extra fields), recorded from the hand-written parsers (fixtures/record-golden.ts)
 * before their conversion.
 */
type Golden = { body: unknown; ok?: unknown; error?: string }[];

const answer = (parse: () => unknown) => {
  try {
    return { ok: JSON.parse(JSON.stringify(parse())) };
  } catch (error) {
    const { status, message, code, extra } = error as { status: number; message: string; code?: string; extra?: unknown };
    return { error: message, status, code, extra };
  }
};

describe.each([
  ['PATCH /v1/scheduled-sends/{id}', (body: unknown) => parseRescheduleRequest(body, GOLDEN_NOW), scheduledGolden as Golden, 3],
  ['PATCH /v1/send-batch/{batchId}', parseBatchReschedule, batchGolden as Golden, 1],
])('%s: answers as the hand-written parser did', (_route, parse, golden, refusals) => {
  it('gives the same input or the same refusal on every recorded body', () => {
    const same = ({ body, ...expected }: Golden[number]) => JSON.stringify(answer(() => parse(body))) === JSON.stringify(expected);
    expect(golden.filter((g) => !same(g)).slice(0, 3).map(({ body, ...expected }) => ({ body, expected, got: answer(() => parse(body)) }))).toEqual([]);
  });

  it('records both accepted and refused bodies', () => {
    expect(golden.filter((g) => 'ok' in g).length).toBeGreaterThan(100);
    expect(new Set(golden.map((g) => JSON.stringify(g.error === undefined ? null : g))).size).toBeGreaterThan(refusals);
  });
});
