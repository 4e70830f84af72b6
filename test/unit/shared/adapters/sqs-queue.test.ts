import { batchesOf } from '../../../../shared/adapters/sqs-queue';

describe('SendMessageBatch splitting', () => {
  test('at most ten messages per batch', () => {
    expect(batchesOf(Array.from({ length: 23 }, (_, i) => `m${i}`)).map((b) => b.length)).toEqual([10, 10, 3]);
  });
  test('at most about 250 KB per batch, so one large inbound reply travels with few others', () => {
    const big = 'x'.repeat(150_000);
    expect(batchesOf([big, 'a', big, 'b']).map((b) => b.length)).toEqual([2, 2]);
  });
  test('a single body over the budget still goes, alone', () => {
    expect(batchesOf(['y'.repeat(300_000), 'z']).map((b) => b.length)).toEqual([1, 1]);
  });
});
