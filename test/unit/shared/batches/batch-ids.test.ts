import { batchActivityId, batchOfActivity, newBatchId } from '../../../../shared/mail-pipeline/batches/batch-ids';

describe('batch activity ids name their batch and place', () => {
  it('recipient i of a batch reads back as (batch, i)', () => {
    const batchId = newBatchId();
    for (const i of [0, 1, 499, 500, 9_999]) expect(batchOfActivity(batchActivityId(batchId, i))).toEqual({ batchId, index: i });
  });

  it('ids are UUIDs (version 8), distinct per recipient and apart from the batch id', () => {
    const batchId = newBatchId();
    const ids = [0, 1, 2].map((i) => batchActivityId(batchId, i));
    for (const id of ids) expect(id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-8[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(new Set([...ids, batchId]).size).toBe(4);
  });

  it('a single send id (version 4) is not of a batch', () => {
    expect(batchOfActivity('0b6f1c1e-5d4a-4f7e-9a44-6a0f3c1d2e3f')).toBeUndefined();
  });

  it('refuses an index beyond 10,000 recipients', () => {
    expect(() => batchActivityId(newBatchId(), 10_000)).toThrow(RangeError);
  });
});
