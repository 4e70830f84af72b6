import type { Needs } from '../../platform/core/dependencies';
import { logger } from '../../platform/core/logger';
import type { CampaignExport, ExportJob } from './campaign-export';
import { WALK_START, readCampaignPage, type WalkPosition } from './campaign-walk';
import { outcomeCsvHeader, outcomeCsvLine, recipientOutcome } from './recipient-outcome';
import { checkpointPart, claimPart, finishExport, getExport, setUploadId } from './report-repository';

/** What this module's use cases touch. */
type Deps = Needs<'db' | 'clock' | 'blobs' | 'queue'>;

/** Bytes a part reaches before it is uploaded: above S3's 5 MB minimum for every part but the last. */
export const EXPORT_PART_BYTES = 8 * 1024 * 1024;

/** Physical part numbers per logical part: S3 allows 10,000, so an export holds up to 999 parts (about 8 GB, 60 million rows). */
const ATTEMPTS_PER_PART = 10;
const MAX_PARTS = 999;

/** Most records read per page while a part is built (ten BatchGets of 100). */
const PAGE_SIZE = 1000;

/** The shortest a CSV line gets (a short address, an id, no times): pages are sized so a part overshoots by little. */
const MIN_LINE_BYTES = 80;

export interface ExportRunOptions {
  /** Milliseconds this run may work before it queues its continuation (the worker has 15 minutes). */
  budgetMs?: number;
  /** Part size (tests use small parts to exercise several). */
  partBytes?: number;
}

/**
 * Runs an export from its checkpoint: claims the next part, reads the campaign's records from the
 * saved position until the part is full, uploads it, and checkpoints; at the end of the campaign it
 * assembles the parts and completes. Every step survives a crash or a duplicate message: a crash
 * after an upload only repeats that part under a new physical number, and the checkpoint, written
 * only if the export is still at that part, decides which upload counts.
 */
export async function runExport(deps: Deps, job: ExportJob, options: ExportRunOptions = {}): Promise<void> {
  const started = Date.now();
  const budget = options.budgetMs ?? 12 * 60_000;
  const partBytes = options.partBytes ?? EXPORT_PART_BYTES;
  for (;;) {
    const record = await getExport(deps.db, job.campaign_id, job.export_id);
    if (!record || record.status !== 'running' || record.project_id !== job.project_id) return;
    const now = () => deps.clock.now().toISOString();

    if (record.exhausted) {
      await complete(deps, record, now());
      return;
    }
    if (!record.upload_id) {
      const uploadId = await deps.blobs.startUpload(record.object_key, 'text/csv; charset=utf-8');
      // A concurrent run that recorded its upload first wins; ours is left to the bucket's abort rule.
      await setUploadId(deps.db, record, uploadId, now());
      continue;
    }
    if (Date.now() - started > budget) {
      await deps.queue.send('exports', job);
      return;
    }
    if (record.part >= MAX_PARTS) {
      await finishExport(deps.db, record, { status: 'failed', error: `The export exceeds ${MAX_PARTS} parts`, updated_at: now() });
      return;
    }
    const attempt = await claimPart(deps.db, record, record.part, now());
    if (attempt === undefined) continue;
    if (attempt >= ATTEMPTS_PER_PART) {
      await finishExport(deps.db, record, { status: 'failed', error: `Part ${record.part + 1} failed ${ATTEMPTS_PER_PART - 1} times`, updated_at: now() });
      return;
    }
    const built = await buildPart(deps, record, partBytes);
    const partNumber = record.part * ATTEMPTS_PER_PART + attempt;
    const etag = await deps.blobs.uploadPart(record.object_key, record.upload_id, partNumber, built.body);
    await checkpointPart(deps.db, record, record.part, { partNumber, etag, rows: built.rows, next: built.next }, now());
  }
}

/** The CSV lines of the next part: whole pages of records from the saved position until the part is full. */
async function buildPart(deps: Deps, record: CampaignExport, partBytes: number): Promise<{ body: Buffer; rows: number; next?: WalkPosition }> {
  const lines: string[] = record.part === 0 ? [outcomeCsvHeader()] : [];
  let bytes = lines.join('').length;
  let rows = 0;
  let position: WalkPosition | undefined = record.position ?? WALK_START;
  while (position && bytes < partBytes) {
    const page: Awaited<ReturnType<typeof readCampaignPage>> = await readCampaignPage(
      deps.db,
      record.project_id,
      record.campaign_id,
      position,
      Math.max(1, Math.min(PAGE_SIZE, Math.ceil((partBytes - bytes) / MIN_LINE_BYTES))),
      record.created_at,
    );
    for (const activity of page.records) {
      const line = outcomeCsvLine(recipientOutcome(activity));
      lines.push(line);
      bytes += Buffer.byteLength(line);
      rows++;
    }
    position = page.next;
  }
  return { body: Buffer.from(lines.join(''), 'utf8'), rows, next: position };
}

/**
 * Assembles the parts. A replay after a crash that followed the completion finds the upload gone
 * (`NoSuchUpload`): an upload only goes by completion or by the bucket's one-day abort rule, and an
 * export's parts are written within hours, so gone means completed. (The worker may only put to
 * the bucket, so it cannot look at the object itself.)
 */
async function complete(deps: Deps, record: CampaignExport, now: string): Promise<void> {
  try {
    await deps.blobs.completeUpload(record.object_key, record.upload_id as string, record.parts);
  } catch (error) {
    if ((error as { name?: string }).name !== 'NoSuchUpload') throw error;
    logger.info('Export upload was already complete', { exportId: record.id });
  }
  await finishExport(deps.db, record, { status: 'completed', completed_at: now, updated_at: now });
}
