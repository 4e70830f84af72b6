import { AppError } from '../../../../shared/platform/core/errors';
import { parseSendEmailRequest } from '../../../../shared/mail-pipeline/sending/send-email-request';

const MISSING = 'Missing required fields: recipient_email, sender_email, html_body';
const RECIPIENT_SHAPE = 'recipient_email must be a non-empty string or array of strings';
const tooMany = (n: number) => `Too many recipients in recipient_email (${n}). Maximum is 50. For larger sends use /v1/send-batch.`;

const valid = () => ({
  recipient_email: 'to@example.com',
  sender_email: 'from@example.com',
  html_body: '<p>Hello</p>',
});

const addresses = (n: number, prefix = 'user') => Array.from({ length: n }, (_, i) => `${prefix}${i}@example.com`);

/** The AppError thrown by parsing `body` (fails the test when nothing or something else is thrown). */
function errorOf(body: unknown): AppError {
  try {
    parseSendEmailRequest(body);
  } catch (error) {
    expect(error).toBeInstanceOf(AppError);
    return error as AppError;
  }
  throw new Error('parseSendEmailRequest accepted the body');
}

function expectRejected(body: unknown, message: string | RegExp): void {
  const error = errorOf(body);
  expect(error.status).toBe(400);
  if (typeof message === 'string') expect(error.message).toBe(message);
  else expect(error.message).toMatch(message);
}

describe('parseSendEmailRequest (POST /v1/send-email, parts 4.1, 7 and 8)', () => {
  describe('required fields', () => {
    test('a body with the three required fields is accepted', () => {
      const input = parseSendEmailRequest(valid());
      expect(input.to).toEqual(['to@example.com']);
      expect(input.senderEmail).toBe('from@example.com');
      expect(input.html).toBe('<p>Hello</p>');
      expect(input.cc).toEqual([]);
      expect(input.bcc).toEqual([]);
      expect(input.attachments).toEqual([]);
      expect(input.environment).toBeUndefined();
    });

    test.each(['recipient_email', 'sender_email', 'html_body'])('a missing %s is refused with the part-7 message', (field) => {
      const body: Record<string, unknown> = valid();
      delete body[field];
      expectRejected(body, MISSING);
    });

    test.each(['recipient_email', 'sender_email', 'html_body'])('a null %s is refused with the part-7 message', (field) => {
      expectRejected({ ...valid(), [field]: null }, MISSING);
    });

    test.each(['sender_email', 'html_body'])('an empty-string %s is refused with the part-7 message', (field) => {
      expectRejected({ ...valid(), [field]: '' }, MISSING);
    });

    test('an empty body is refused with the part-7 message', () => {
      expectRejected({}, MISSING);
    });

    test('errors are AppErrors with status 400', () => {
      const error = errorOf({});
      expect(error).toBeInstanceOf(AppError);
      expect(error).toBeInstanceOf(Error);
      expect(error.status).toBe(400);
    });

    test('a body that is not an object is refused with 400', () => {
      expect(errorOf('a string').status).toBe(400);
      expect(errorOf([valid()]).status).toBe(400);
      expect(errorOf(null).status).toBe(400);
    });
  });

  describe('recipient_email shape', () => {
    test.each<[string, unknown]>([
      ['a number', 42],
      ['an object', { email: 'to@example.com' }],
      ['an array containing a number', ['to@example.com', 7]],
      ['an empty array', []],
      ['an empty string', ''],
      ['a boolean', true],
      ['an array containing an empty string', ['to@example.com', '']],
    ])('recipient_email as %s is refused with the part-7 message', (_, value) => {
      expectRejected({ ...valid(), recipient_email: value }, RECIPIENT_SHAPE);
    });

    test('a single string is accepted', () => {
      expect(parseSendEmailRequest({ ...valid(), recipient_email: 'a@example.com' }).to).toEqual(['a@example.com']);
    });

    test('an array of strings is accepted, in order', () => {
      expect(parseSendEmailRequest({ ...valid(), recipient_email: ['a@example.com', 'b@example.com'] }).to).toEqual([
        'a@example.com',
        'b@example.com',
      ]);
    });
  });

  describe('recipient count (max 50)', () => {
    test('exactly 50 recipients are accepted', () => {
      const input = parseSendEmailRequest({ ...valid(), recipient_email: addresses(50) });
      expect(input.to).toHaveLength(50);
    });

    test('51 recipients are refused with the part-7 message naming the count', () => {
      expectRejected({ ...valid(), recipient_email: addresses(51) }, tooMany(51));
      expect(tooMany(51)).toBe('Too many recipients in recipient_email (51). Maximum is 50. For larger sends use /v1/send-batch.');
    });

    test('the message names the actual count', () => {
      expectRejected({ ...valid(), recipient_email: addresses(120) }, tooMany(120));
    });
  });

  describe('recipients are lowercased and deduplicated', () => {
    test('mixed-case duplicates collapse to one lowercased address, first occurrence order kept', () => {
      const input = parseSendEmailRequest({
        ...valid(),
        recipient_email: ['Alice@Example.COM', 'bob@example.com', 'alice@example.com', ' BOB@example.com '],
      });
      expect(input.to).toEqual(['alice@example.com', 'bob@example.com']);
    });

    test('cc and bcc are lowercased and deduplicated too', () => {
      const input = parseSendEmailRequest({
        ...valid(),
        cc: ['CC@Example.com', 'cc@example.com'],
        bcc: 'Hidden@Example.com',
      });
      expect(input.cc).toEqual(['cc@example.com']);
      expect(input.bcc).toEqual(['hidden@example.com']);
    });
  });

  describe('cc and bcc (max 10 each)', () => {
    test.each(['cc', 'bcc'])('%s with 10 addresses is accepted', (field) => {
      const input = parseSendEmailRequest({ ...valid(), [field]: addresses(10, field) });
      expect(input[field as 'cc' | 'bcc']).toHaveLength(10);
    });

    test('cc with 11 addresses is refused with the part-7 message', () => {
      expectRejected({ ...valid(), cc: addresses(11, 'cc') }, 'cc accepts at most 10 addresses');
    });

    test('bcc with 11 addresses is refused with the part-7 message', () => {
      expectRejected({ ...valid(), bcc: addresses(11, 'bcc') }, 'bcc accepts at most 10 addresses');
    });

    test.each(['cc', 'bcc'])('%s as a single string is accepted', (field) => {
      const input = parseSendEmailRequest({ ...valid(), [field]: 'copy@example.com' });
      expect(input[field as 'cc' | 'bcc']).toEqual(['copy@example.com']);
    });

    test.each(['cc', 'bcc'])('%s of a wrong type is refused with 400', (field) => {
      expect(errorOf({ ...valid(), [field]: 12 }).status).toBe(400);
      expect(errorOf({ ...valid(), [field]: ['ok@example.com', 3] }).status).toBe(400);
    });
  });

  describe('address syntax', () => {
    test.each(['not-an-address', 'a@b', 'two@@example.com', 'spa ce@example.com', '<x@example.com>'])(
      'an invalid recipient_email %p is refused with 400',
      (bad) => {
        expectRejected({ ...valid(), recipient_email: ['ok@example.com', bad] }, /recipient_email/);
      },
    );

    test('an invalid cc address is refused with 400 naming cc', () => {
      expectRejected({ ...valid(), cc: ['ok@example.com', 'nope'] }, /\bcc\b/);
    });

    test('an invalid bcc address is refused with 400 naming bcc', () => {
      expectRejected({ ...valid(), bcc: 'nope@' }, /\bbcc\b/);
    });

    test('an invalid sender_email is refused with 400 naming sender_email', () => {
      expectRejected({ ...valid(), sender_email: 'sender-without-domain' }, /sender_email/);
    });

    test('a sender_email of a wrong type is refused with 400', () => {
      expect(errorOf({ ...valid(), sender_email: 5 }).status).toBe(400);
    });
  });

  describe('attachments (max 10)', () => {
    const attachment = (i: number) => ({ filename: `f${i}.txt`, content: Buffer.from(`file ${i}`).toString('base64') });

    test.each<[string, unknown]>([
      ['an object', { filename: 'a.txt', content: 'aGk=' }],
      ['a string', 'a.txt'],
      ['a number', 1],
    ])('attachments as %s is refused with the part-7 message', (_, value) => {
      expectRejected({ ...valid(), attachments: value }, 'attachments must be an array');
    });

    test('10 attachments are accepted', () => {
      const input = parseSendEmailRequest({ ...valid(), attachments: Array.from({ length: 10 }, (_, i) => attachment(i)) });
      expect(input.attachments).toHaveLength(10);
    });

    test('11 attachments are refused with the part-7 message', () => {
      expectRejected(
        { ...valid(), attachments: Array.from({ length: 11 }, (_, i) => attachment(i)) },
        'attachments accepts at most 10 items',
      );
    });

    test('an attachment by content keeps filename, content and contentType', () => {
      const input = parseSendEmailRequest({
        ...valid(),
        attachments: [{ filename: 'report.pdf', content: 'JVBERi0xLjQ=', contentType: 'application/pdf' }],
      });
      expect(input.attachments).toEqual([{ filename: 'report.pdf', url: undefined, content: 'JVBERi0xLjQ=', contentType: 'application/pdf' }]);
    });

    test.each(['https://files.example.com/a.pdf', 'http://files.example.com/a.pdf'])('an attachment by url %s is accepted', (url) => {
      const input = parseSendEmailRequest({ ...valid(), attachments: [{ filename: 'a.pdf', url }] });
      expect(input.attachments[0]).toMatchObject({ filename: 'a.pdf', url, content: undefined });
    });

    test('an attachment without filename is refused', () => {
      expectRejected({ ...valid(), attachments: [{ content: 'aGk=' }] }, /filename/);
    });

    test('an attachment with a blank filename is refused', () => {
      expectRejected({ ...valid(), attachments: [{ filename: '  ', content: 'aGk=' }] }, /filename/);
    });

    test('an attachment with both url and content is refused', () => {
      expectRejected(
        { ...valid(), attachments: [{ filename: 'a.txt', content: 'aGk=', url: 'https://example.com/a.txt' }] },
        /exactly one of url or content/,
      );
    });

    test('an attachment with neither url nor content is refused', () => {
      expectRejected({ ...valid(), attachments: [{ filename: 'a.txt' }] }, /exactly one of url or content/);
    });

    test.each(['ftp://example.com/a.txt', 'file:///etc/passwd', 'javascript:alert(1)', 'example.com/a.txt'])(
      'an attachment url %p that is not http(s) is refused',
      (url) => {
        expectRejected({ ...valid(), attachments: [{ filename: 'a.txt', url }] }, /url must be an http or https URL/);
      },
    );

    test.each(['not base64!', '%%%%', 'aGk=aGk='])('attachment content %p that is not base64 is refused', (content) => {
      expectRejected({ ...valid(), attachments: [{ filename: 'a.txt', content }] }, /content must be base64/);
    });

    test('an attachment item that is not an object is refused with 400', () => {
      expect(errorOf({ ...valid(), attachments: ['a.txt'] }).status).toBe(400);
    });

    test('the message names the offending item index', () => {
      expectRejected({ ...valid(), attachments: [attachment(0), { filename: 'b.txt' }] }, /attachments\[1\]/);
    });
  });

  describe('environment (pattern [a-zA-Z0-9_.-], max 64)', () => {
    test('a 64-character environment is accepted', () => {
      const env = 'e'.repeat(64);
      expect(parseSendEmailRequest({ ...valid(), environment: env }).environment).toBe(env);
    });

    test('a 65-character environment is refused with 400', () => {
      expect(errorOf({ ...valid(), environment: 'e'.repeat(65) }).status).toBe(400);
    });

    test.each(['bad env!', 'a/b', 'ümlaut', 'semi;colon'])('environment %p is refused with 400', (env) => {
      expect(errorOf({ ...valid(), environment: env }).status).toBe(400);
    });

    test('every allowed character class is accepted', () => {
      expect(parseSendEmailRequest({ ...valid(), environment: 'Staging_2.eu-west' }).environment).toBe('Staging_2.eu-west');
    });

    test('a non-string environment is refused with 400', () => {
      expect(errorOf({ ...valid(), environment: 12 }).status).toBe(400);
    });
  });

  describe('optional fields', () => {
    test('sender_name, subject and text_body are carried through', () => {
      const input = parseSendEmailRequest({ ...valid(), sender_name: 'Ada', subject: 'Hi', text_body: 'Hello' });
      expect(input).toMatchObject({ senderName: 'Ada', subject: 'Hi', text: 'Hello' });
    });

    test('absent optional fields stay undefined (defaults are applied later)', () => {
      const input = parseSendEmailRequest(valid());
      expect(input.senderName).toBeUndefined();
      expect(input.subject).toBeUndefined();
      expect(input.text).toBeUndefined();
    });

    test('a non-string subject is refused with 400', () => {
      expect(errorOf({ ...valid(), subject: 3 }).status).toBe(400);
    });
  });
});

describe('attachment content must decode to bytes', () => {
  test.each(['a', 'abcde', '====', '   '])('%j is refused as not base64', (content) => {
    expectRejected({ ...valid(), attachments: [{ filename: 'x.txt', content }] }, /content must be base64|needs exactly one of url or content/);
  });

  test.each(['aGk=', 'aGk', 'aGVs\nbG8='])('%j is accepted (padding optional, line breaks allowed)', (content) => {
    expect(parseSendEmailRequest({ ...valid(), attachments: [{ filename: 'x.txt', content }] }).attachments).toHaveLength(1);
  });
});
