import { AppError } from '../../../../shared/platform/core/errors';
import { domainParam, emailParam } from '../../../../shared/platform/http/path-params';

function refusal(fn: () => unknown): AppError {
  try {
    fn();
  } catch (error) {
    expect(error).toBeInstanceOf(AppError);
    return error as AppError;
  }
  throw new Error('accepted');
}

describe('the {domain} path parameter', () => {
  test('a domain name is read lowercased, without a final dot', () => {
    expect(domainParam({ domain: 'Mail.Example.COM.' })).toBe('mail.example.com');
  });

  test.each([
    ['over 253 characters', `${'a.'.repeat(127)}com`],
    ['2 KB, beyond a DynamoDB key', 'a'.repeat(2048)],
    ['a label over 63 characters', `${'a'.repeat(64)}.com`],
    ['an address', 'a@example.com'],
    ['empty', ''],
    ['a NUL', 'a\u0000.com'],
    ['unicode', 'é😀.example.com'],
  ])('%s is a 400 Invalid domain', (_name, value) => {
    const error = refusal(() => domainParam({ domain: value }));
    expect(error.status).toBe(400);
    expect(error.message).toMatch(/^Invalid domain: /);
    expect(error.message.length).toBeLessThan(360);
  });
});

describe('the {email} path parameter', () => {
  test('an address is read as given', () => {
    expect(emailParam({ email: 'Someone@Example.com' })).toBe('Someone@Example.com');
  });

  test.each([
    ['2 KB local part', `${'a'.repeat(2048)}@example.com`],
    ['2 KB domain', `a@${'a'.repeat(2048)}.com`],
    ['no @', 'someone'],
    ['bad percent-encoding left as is', '%E0%A4%A'],
  ])('%s is a 400 Invalid email address', (_name, value) => {
    const error = refusal(() => emailParam({ email: value }));
    expect(error.status).toBe(400);
    expect(error.message).toMatch(/^Invalid email address: /);
  });
});
