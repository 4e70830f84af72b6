/**
 * Seeded request samples for the golden tests (test/unit/support/golden.ts): good inputs with some
 * fields changed to other good or bad values, the same list on every run and machine.
 */

/** A small seeded PRNG (mulberry32): the same samples on every machine. */
export function random(seed: number): () => number {
  return () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** A field left out of a drawn body. */
export const ABSENT = Symbol('absent');
/** Per field, its values: the first is its good one. */
export type Choices = Record<string, readonly unknown[]>;

/** `count` seeded bodies drawn from `choices`, each field its good value three times in four, after `extra` (by default six that are no object). */
export function draw(choices: Choices, count: number, seed: number, extra: unknown[] = [null, undefined, [], 'text', 5, {}]): unknown[] {
  const next = random(seed);
  const samples: unknown[] = [...extra];
  for (let i = 0; i < count; i++) {
    const body: Record<string, unknown> = {};
    for (const [field, values] of Object.entries(choices)) {
      const value = next() < 0.75 ? values[0] : values[Math.floor(next() * values.length)];
      if (value !== ABSENT) body[field] = value;
    }
    samples.push(body);
  }
  return samples;
}
