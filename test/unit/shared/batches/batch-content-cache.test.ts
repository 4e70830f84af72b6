import { BatchContentCache } from '../../../../shared/mail-pipeline/batches/batch-content-cache';
import type { BlobStore } from '../../../../shared/platform/core/ports';

/** The batch-send worker's content, kept while the instance is warm (issue 16). */
function countingBlobs(fail = 0) {
  const reads: string[] = [];
  const blobs: BlobStore = {
    put: async () => undefined,
    get: async (key) => {
      reads.push(key);
      if (reads.length <= fail) throw new Error('S3 unavailable');
      return Buffer.from(JSON.stringify({ sender: 'a@example.com', subject: key, emailType: 'marketing', customHeaders: {} }));
    },
  };
  return { blobs, reads };
}

describe('the batch content cache', () => {
  test('reads a batch content from S3 once for all its jobs', async () => {
    const { blobs, reads } = countingBlobs();
    const cache = new BatchContentCache();
    const [a, b] = await Promise.all([cache.load(blobs, 'p-1', 'batch-1'), cache.load(blobs, 'p-1', 'batch-1')]);
    await cache.load(blobs, 'p-1', 'batch-1');
    expect(reads).toHaveLength(1);
    expect(a).toEqual(b);
  });

  test('keeps batches of different projects apart', async () => {
    const { blobs, reads } = countingBlobs();
    const cache = new BatchContentCache();
    await cache.load(blobs, 'p-1', 'batch-1');
    await cache.load(blobs, 'p-2', 'batch-1');
    expect(reads).toEqual(['batches/p-1/batch-1/content.json', 'batches/p-2/batch-1/content.json']);
  });

  test('lets the least recently used batch go after eight', async () => {
    const { blobs, reads } = countingBlobs();
    const cache = new BatchContentCache();
    for (let i = 0; i < 9; i++) await cache.load(blobs, 'p-1', `batch-${i}`);
    await cache.load(blobs, 'p-1', 'batch-8');
    expect(reads).toHaveLength(9);
    await cache.load(blobs, 'p-1', 'batch-0');
    expect(reads).toHaveLength(10);
  });

  test('does not keep a failed read', async () => {
    const { blobs, reads } = countingBlobs(1);
    const cache = new BatchContentCache();
    await expect(cache.load(blobs, 'p-1', 'batch-1')).rejects.toThrow('S3 unavailable');
    await expect(cache.load(blobs, 'p-1', 'batch-1')).resolves.toMatchObject({ sender: 'a@example.com' });
    expect(reads).toHaveLength(2);
  });
});
