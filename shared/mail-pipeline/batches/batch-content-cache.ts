import type { BlobStore } from '../../platform/core/ports';
import type { BatchContent } from './batch';
import { loadBatchContent } from './batch-repository';

/** Batches whose content a warm worker keeps: a batch's jobs arrive close together, a few batches at a time. */
const KEPT_BATCHES = 8;

/**
 * The batches' shared content, kept by a warm batch-send worker across invocations. A batch's
 * content never changes once accepted (the id is new each time), so a kept copy is never stale;
 * without it each 50-recipient job reads the same object from S3 again.
 */
export class BatchContentCache {
  private readonly kept = new Map<string, Promise<BatchContent>>();

  /** The content of batch `batchId` of `projectId`, from S3 on the first ask. */
  load(blobs: BlobStore, projectId: string, batchId: string): Promise<BatchContent> {
    const key = `${projectId}/${batchId}`;
    const hit = this.kept.get(key);
    if (hit) {
      // Most recently used last, so the oldest batch is the one let go.
      this.kept.delete(key);
      this.kept.set(key, hit);
      return hit;
    }
    const loading = loadBatchContent(blobs, projectId, batchId);
    // A failed read is not kept: the job's retry reads again.
    loading.catch(() => this.kept.delete(key));
    this.kept.set(key, loading);
    while (this.kept.size > KEPT_BATCHES) this.kept.delete(this.kept.keys().next().value as string);
    return loading;
  }
}
