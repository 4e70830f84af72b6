import { parseCreateTemplate, parseUpdateTemplate } from '../../../../shared/templates/template-request';
import createGolden from './fixtures/create-template.golden.json';
import updateGolden from './fixtures/update-template.golden.json';

/**
 * The schema-based template parsers answer as the hand-written ones did: on 506 seeded bodies each
 * (fixtures/template-samples.ts), the same parsed fields or the same 400 message, recorded from the
 * hand-written parsers (fixtures/record-golden.ts) before their conversion.
 */
type Golden = { body: unknown; ok?: unknown; error?: string }[];

const answer = (parse: (body: unknown) => unknown, body: unknown) => {
  try {
    return { ok: JSON.parse(JSON.stringify(parse(body))) };
  } catch (error) {
    return { error: (error as Error).message };
  }
};

describe.each([
  ['POST /v1/templates', parseCreateTemplate, createGolden as Golden],
  ['PUT /v1/templates/{id}', parseUpdateTemplate, updateGolden as Golden],
])('%s: answers as the hand-written parser did', (_route, parse, golden) => {
  it('gives the same fields or the same message on every recorded body', () => {
    const differing = golden.filter(({ body, ...expected }) => JSON.stringify(answer(parse, body)) !== JSON.stringify(expected));
    expect(differing.slice(0, 3).map(({ body, ...expected }) => ({ body, expected, got: answer(parse, body) }))).toEqual([]);
  });

  it('records both accepted and refused bodies', () => {
    expect(golden.filter((g) => 'ok' in g).length).toBeGreaterThan(100);
    expect(new Set(golden.map((g) => g.error)).size).toBeGreaterThan(4);
  });
});
