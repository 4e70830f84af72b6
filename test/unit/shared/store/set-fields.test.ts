import { setFields } from '../../../../shared/platform/store/set-fields';

describe('setFields: the parts of a SET and REMOVE update', () => {
  test('sets each defined field under placeholder names and leaves undefined ones out', () => {
    expect(setFields({ status: 'done', note: undefined, 'odd-name': 1 })).toEqual({
      UpdateExpression: 'SET #f0 = :v0, #f1 = :v1',
      ExpressionAttributeNames: { '#f0': 'status', '#f1': 'odd-name' },
      ExpressionAttributeValues: { ':v0': 'done', ':v1': 1 },
    });
  });

  test('removes each named field after the sets', () => {
    expect(setFields({ status: 'paused' }, ['pause', 'throttled_at'])).toEqual({
      UpdateExpression: 'SET #f0 = :v0 REMOVE #r0, #r1',
      ExpressionAttributeNames: { '#f0': 'status', '#r0': 'pause', '#r1': 'throttled_at' },
      ExpressionAttributeValues: { ':v0': 'paused' },
    });
  });

  test('an update that only removes has no SET clause and no values', () => {
    expect(setFields({}, ['pause'])).toEqual({ UpdateExpression: 'REMOVE #r0', ExpressionAttributeNames: { '#r0': 'pause' }, ExpressionAttributeValues: {} });
  });
});
