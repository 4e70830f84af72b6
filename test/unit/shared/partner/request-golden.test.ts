import { parseCreateProject, parseDomainOnboarding, parseProjectPatch, parseSenderCreation } from '../../../../shared/partner/project-request';
import createGolden from './fixtures/project-create.golden.json';
import patchGolden from './fixtures/project-patch.golden.json';
import domainGolden from './fixtures/domain-onboarding.golden.json';
import senderGolden from './fixtures/sender-creation.golden.json';

/**
 * The partner parsers answer as the hand-written ones did on the seeded bodies of
 * fixtures/request-samples.ts: the same parsed input, or the same message with the same status and
 * code (partner bodies echo it as `code` and `error_code`). Recorded before their conversion to
 * schemas (fixtures/record-golden.ts), so that the conversion is held to them.
 */
type Golden = { body?: unknown; ok?: unknown; error?: string; status?: number; code?: string }[];

const answer = (parse: (body: unknown) => unknown, body: unknown) => {
  try {
    return { ok: JSON.parse(JSON.stringify(parse(body))) };
  } catch (error) {
    const { message, status, code } = error as { message: string; status?: number; code?: string };
    return { error: message, status, code };
  }
};

describe.each([
  ['POST /v1/partner/projects', parseCreateProject, createGolden as Golden],
  ['PATCH /v1/partner/projects/{id}', parseProjectPatch, patchGolden as Golden],
  ['POST /v1/partner/projects/{id}/domains', parseDomainOnboarding, domainGolden as Golden],
  ['POST /v1/partner/projects/{id}/senders', parseSenderCreation, senderGolden as Golden],
])('%s: answers as the hand-written parser did', (_route, parse, golden) => {
  it('gives the same input, or the same message, status and code, on every recorded body', () => {
    const differing = golden.filter(({ body, ...expected }) => JSON.stringify(answer(parse, body)) !== JSON.stringify(expected));
    expect(differing.slice(0, 3).map(({ body, ...expected }) => ({ body, expected, got: answer(parse, body) }))).toEqual([]);
  });

  it('records both accepted and refused bodies', () => {
    expect(golden.filter((g) => 'ok' in g).length).toBeGreaterThan(50);
    expect(new Set(golden.map((g) => g.error)).size).toBeGreaterThan(3);
  });
});
