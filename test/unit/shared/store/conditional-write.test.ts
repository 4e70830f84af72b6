import { conditionalWrite, isConditionalCheckFailure, writtenUnlessConditionFails } from '../../../../shared/platform/store/conditional-write';

const lost = (item?: Record<string, unknown>) => Object.assign(new Error('The conditional request failed'), { name: 'ConditionalCheckFailedException', ...(item ? { Item: item } : {}) });

describe('the one idiom for a conditional write that lost', () => {
  test('a written write is true; a failed condition is false; any other error throws', async () => {
    await expect(writtenUnlessConditionFails(Promise.resolve({}))).resolves.toBe(true);
    await expect(writtenUnlessConditionFails(Promise.reject(lost()))).resolves.toBe(false);
    await expect(writtenUnlessConditionFails(Promise.reject(Object.assign(new Error('slow down'), { name: 'ThrottlingException' })))).rejects.toThrow('slow down');
  });

  test('conditionalWrite keeps the output of a written write, and the item that stood in the way of a refused one', async () => {
    await expect(conditionalWrite(Promise.resolve({ Attributes: { n: 1 } }))).resolves.toEqual({ written: true, output: { Attributes: { n: 1 } } });
    await expect(conditionalWrite(Promise.reject(lost({ status: { S: 'completed' } })))).resolves.toEqual({ written: false, standing: { status: { S: 'completed' } } });
    await expect(conditionalWrite(Promise.reject(lost()))).resolves.toEqual({ written: false, standing: undefined });
  });

  test('only DynamoDB\'s ConditionalCheckFailedException is a lost condition', () => {
    expect(isConditionalCheckFailure(lost())).toBe(true);
    expect(isConditionalCheckFailure(Object.assign(new Error('x'), { name: 'TransactionCanceledException' }))).toBe(false);
    expect(isConditionalCheckFailure(null)).toBe(false);
  });
});
