/**
 * Golden answers of request parsers: recorded from a hand-written parser before its conversion to a
 * schema (`recordGolden`, run by each folder's fixtures/record-golden.ts), then held against the
 * converted parser (`describeGolden`). One recorder and one runner, so that every golden test
 * compares in the same way.
 */
import { writeFileSync } from 'node:fs';

/** A parser's answer: the parsed input (as JSON), or the refusal's message and the fields `keep` names. */
export type Answer = { ok?: unknown; error?: string; status?: number; code?: string; extra?: unknown };
/** A recorded case: its inputs (`body`, `query`, `headers`...) and the answer given to them. */
export type GoldenCase = Record<string, unknown> & Answer;
/** What of a refusal is recorded besides its message (partner bodies carry `status` and `code`). */
export type RefusalFields = readonly ('status' | 'code' | 'extra')[];

const ANSWER_KEYS = new Set(['ok', 'error', 'status', 'code', 'extra']);

/** The answer of `run`, as JSON would carry it. */
export function answerOf(run: () => unknown, keep: RefusalFields = []): Answer {
  try {
    return { ok: JSON.parse(JSON.stringify(run() ?? null)) };
  } catch (error) {
    const refusal = error as Record<string, unknown>;
    const answer: Answer = { error: (error as Error).message };
    for (const field of keep) (answer as Record<string, unknown>)[field] = refusal[field];
    return answer;
  }
}

/** The inputs of a recorded case, without its answer. */
export const inputsOf = (golden: GoldenCase): Record<string, unknown> => Object.fromEntries(Object.entries(golden).filter(([key]) => !ANSWER_KEYS.has(key)));
const expectedOf = (golden: GoldenCase): Answer => Object.fromEntries(Object.entries(golden).filter(([key]) => ANSWER_KEYS.has(key)));

/** Writes `file`: each input with the answer `parse` gives it (run with the hand-written parser). */
export function recordGolden<I extends Record<string, unknown>>(file: string, inputs: readonly I[], parse: (input: I) => unknown, keep: RefusalFields = []): void {
  // The parser is given each input as the test will read it back: as JSON (a request body is JSON too).
  const asRead: I[] = JSON.parse(JSON.stringify(inputs));
  writeFileSync(file, JSON.stringify(asRead.map((input) => ({ ...input, ...answerOf(() => parse(input), keep) }))));
}

/** Shorthand: bodies as `{ body }` inputs. */
export const bodies = (samples: readonly unknown[]) => samples.map((body) => ({ body }));

export interface GoldenOptions {
  /** Refusal fields recorded besides the message. */
  readonly keep?: RefusalFields;
  /** At least this many accepted cases (a golden file that refuses everything proves little). */
  readonly accepted?: number;
  /** More than this many distinct refusals. */
  readonly refusals?: number;
}

/** The cases on which `parse` does not give the recorded answer (the first three, for the failure message). */
export function goldenDifferences(golden: readonly GoldenCase[], parse: (input: Record<string, unknown>) => unknown, keep: RefusalFields = []) {
  const got = (g: GoldenCase) => answerOf(() => parse(inputsOf(g)), keep);
  return golden
    .filter((g) => JSON.stringify(got(g)) !== JSON.stringify(expectedOf(g)))
    .slice(0, 3)
    .map((g) => ({ inputs: JSON.stringify(inputsOf(g))?.slice(0, 500), expected: expectedOf(g), got: got(g) }));
}

/** Two tests: `parse` answers every recorded case as recorded, and the record holds both accepted and refused cases. */
export function describeGolden(title: string, golden: readonly GoldenCase[], parse: (input: Record<string, unknown>) => unknown, options: GoldenOptions = {}): void {
  const { keep = [], accepted = 100, refusals = 4 } = options;
  describe(`${title}: answers as the hand-written parser did`, () => {
    it('gives the same input, or the same refusal, on every recorded case', () => {
      expect(goldenDifferences(golden, parse, keep)).toEqual([]);
    });

    it('records both accepted and refused cases', () => {
      expect(golden.filter((g) => 'ok' in g).length).toBeGreaterThanOrEqual(accepted);
      expect(new Set(golden.map((g) => JSON.stringify(g.error === undefined ? null : expectedOf(g)))).size).toBeGreaterThan(refusals);
    });
  });
}
