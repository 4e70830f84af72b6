import { schemasOf } from '../../../../shared/openapi/api-schemas';
import { parseBatchRequest } from '../../../../shared/batches/batch-request';
import { parseRegisterRequest } from '../../../../shared/domains/domain-service';
import { parseCreateProject } from '../../../../shared/partner/project-request';
import { parseSendEmailRequest } from '../../../../shared/sending/send-email-request';
import { parseTemplateSendRequest } from '../../../../shared/sending/template-send-request';

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

const T = '6f1c2b9e-3a4d-4e5f-8a9b-0c1d2e3f4a5b';
const cases: Record<string, { parse: (body: unknown) => unknown; samples: unknown[] }> = {
  'POST /v1/send-email': {
    parse: parseSendEmailRequest,
    samples: [
      { recipient_email: 'a@example.com', sender_email: 's@example.com', html_body: '<p>x</p>' },
      { recipient_email: ['a@example.com', 'b@example.com'], sender_email: 's@example.com', html_body: 'x', cc: null, subject: '' },
      { recipient_email: 'a@example.com', sender_email: 's@example.com', html_body: 5 },
      { recipient_email: 'a@example.com', sender_email: 's@example.com', html_body: 'x', attachments: [{ filename: 'a.txt', content: 'aGk=' }] },
      { recipient_email: 'a@example.com', sender_email: 's@example.com', html_body: 'x', attachments: {} },
      { recipient_email: 'a@example.com', sender_email: 's@example.com', html_body: 'x', environment: 'bad env' },
      { sender_email: 's@example.com', html_body: 'x' },
      [],
    ],
  },
  'POST /v1/send-template-email': {
    parse: parseTemplateSendRequest,
    samples: [
      { template_id: T, recipient_email: 'a@example.com', sender_email: 's@example.com' },
      { html_body: '<p>x</p>', recipient_email: 'a@example.com', sender_email: 's@example.com', variables: { a: 1 } },
      { template_id: T, recipient_email: 'a@example.com', sender_email: 's@example.com', subject: 4 },
      { template_id: T, recipient_email: 'a@example.com', sender_email: 's@example.com', environment: 'has space' },
      { template_id: T, sender_email: 's@example.com' },
      'text',
    ],
  },
  'POST /v1/send-batch': {
    parse: parseBatchRequest,
    samples: [
      { recipients: ['a@example.com'], sender: 's@example.com', subject: 'S', html: '<p>x</p>' },
      { recipients: [{ email: 'a@example.com', data: { n: 1 } }], sender: 's@example.com', subject: 'S', html: 'x', dry_run: true },
      { recipients: ['a@example.com'], sender: 's@example.com', subject: 'S', html: 'x', senderName: 5 },
      { recipients: ['a@example.com'], subject: 'S', html: 'x' },
      null,
    ],
  },
  'POST /domains/register': {
    parse: parseRegisterRequest,
    samples: [
      { domain: 'mail.example.com', sender_name: 'Ex', sender_email: 'hi@mail.example.com' },
      { domain: 'mail.example.com', sender_name: 'Ex', sender_email: 'hi@mail.example.com', external_key: 5 },
      { domain: 'mail.example.com', sender_email: 'hi@mail.example.com' },
    ],
  },
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
