import { AppError } from '../../../../shared/platform/core/errors';
import { checkIdempotencyKey, hashIdempotencyKey } from '../../../../shared/platform/idempotency/idempotency-key';

/** The AppError a call throws, or undefined. */
function thrown(fn: () => unknown): AppError | undefined {
  try {
    fn();
    return undefined;
  } catch (error) {
    return error as AppError;
  }
}

describe('Idempotency-Key value (parts 4.5 and 8: 1 to 256 characters)', () => {
  test.each([
    ['one character', 'a'],
    ['256 characters', 'k'.repeat(256)],
    ['a UUID', '0b6f4c1e-2f7a-4a39-9d51-6a4f0c2e8b11'],
    ['256 non-ASCII characters (counted as characters, not UTF-16 units)', '😀'.repeat(256)],
  ])('%s is accepted as is', (_name, key) => {
    expect(checkIdempotencyKey(key)).toBe(key);
  });

  test.each([
    ['empty', ''],
    ['257 characters', 'k'.repeat(257)],
    ['257 non-ASCII characters', 'é'.repeat(257)],
  ])('%s is a 400 with our message', (_name, key) => {
    const error = thrown(() => checkIdempotencyKey(key));
    expect(error).toBeInstanceOf(AppError);
    expect(error?.status).toBe(400);
    expect(error?.message).toBe('Idempotency-Key must be 1 to 256 characters');
  });
});

describe('hashIdempotencyKey', () => {
  test('is the SHA-256 hex of the key, so any key fits the item key', () => {
    expect(hashIdempotencyKey('abc')).toBe('ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');
    expect(hashIdempotencyKey('k'.repeat(256))).toMatch(/^[0-9a-f]{64}$/);
  });

  test('is case sensitive: keys are compared exactly', () => {
    expect(hashIdempotencyKey('Order-1')).not.toBe(hashIdempotencyKey('order-1'));
  });
});
