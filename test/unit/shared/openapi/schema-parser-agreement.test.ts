import { schemasOf } from '../../../../shared/openapi/api-schemas';
import { parseCreateProject } from '../../../../shared/partner/project-request';

/**
 * Routes whose hand-written parser is not converted yet are described by a schema of their own:
 * on these samples, the schema accepts exactly what the parser accepts, so the OpenAPI document
 * and the typed client do not promise what the API refuses.
 */
const accepts = (parse: (body: unknown) => unknown, body: unknown): boolean => {
  try {
    parse(body);
    return true;
  } catch {
    return false;
  }
};

const cases: Record<string, { parse: (body: unknown) => unknown; samples: unknown[] }> = {
  'POST /v1/partner/projects': {
    parse: parseCreateProject,
    samples: [{ name: 'Acme' }, { name: 'Acme', external_key: 'k' }, {}, { name: '' }],
  },
};

describe('described schemas agree with the parsers they describe', () => {
  it.each(Object.keys(cases))('%s: the schema accepts what the parser accepts', (key) => {
    const { parse, samples } = cases[key];
    const schema = schemasOf(key)!.body!;
    for (const body of samples) {
      expect({ body, schema: schema.safeParse(body).success }).toEqual({ body, schema: accepts(parse, body) });
    }
  });
});

describe('routes whose schema is the one source of validation', () => {
  it.each(['POST /v1/send-email', 'POST /v1/send-template-email', 'POST /domains/register', 'POST /send-email', 'POST /v1/send-batch', 'PATCH /v1/send-batch/{batchId}', 'PATCH /v1/scheduled-sends/{id}', 'POST /v1/templates', 'PUT /v1/templates/{id}', 'POST /v1/suppressions', 'POST /v1/suppressions/remove'])('%s: is marked as validating', (key) => {
    expect(schemasOf(key)?.validates).toBe(true);
  });
});
