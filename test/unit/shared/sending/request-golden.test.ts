import { parseSendEmailRequest } from '../../../../shared/sending/send-email-request';
import { parseTemplateSendRequest } from '../../../../shared/sending/template-send-request';
import sendEmailGolden from './fixtures/send-email.golden.json';
import templateSendGolden from './fixtures/template-send.golden.json';
import registerDomainGolden from './fixtures/register-domain.golden.json';
import { parseRegisterRequest } from '../../../../shared/domains/register-request';

/**
 * The schema-based parsers answer as the hand-written ones did: on 600 to 1,500 seeded bodies per
 * endpoint (fixtures/request-samples.ts), the same parsed input or the same 400 message, in the
 * same order of checks. The answers were recorded from the hand-written parsers
 * (fixtures/record-golden.ts) before their conversion.
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
  ['POST /v1/send-email', parseSendEmailRequest, sendEmailGolden as Golden],
  ['POST /v1/send-template-email', parseTemplateSendRequest, templateSendGolden as Golden],
  ['POST /domains/register', parseRegisterRequest, registerDomainGolden as Golden],
])('%s: answers as the hand-written parser did', (_route, parse, golden) => {
  it('gives the same input or the same message on every recorded body', () => {
    const differing = golden.filter(({ body, ...expected }) => JSON.stringify(answer(parse, body)) !== JSON.stringify(expected));
    expect(differing.slice(0, 3).map(({ body, ...expected }) => ({ body, expected, got: answer(parse, body) }))).toEqual([]);
  });

  it('records both accepted and refused bodies', () => {
    expect(golden.filter((g) => 'ok' in g).length).toBeGreaterThan(100);
    expect(new Set(golden.map((g) => g.error)).size).toBeGreaterThan(4);
  });
});
