import type { Needs } from '../../platform/core/dependencies';
import { getLeadsByEmail } from '../leads/lead-repository';
import { BULK_LEAD_LIMIT, dedupeLastWins } from '../leads/lead-input';
import { upsertLeads } from '../leads/lead-upsert';
import { leadCreatedSignal } from '../leads/lead-signal-keys';
import { checkpoint, putRowErrors, transition, type RowError } from './import-repository';
import { ImportFileError, MAX_REPORTED_ERRORS, type ImportProgress, type LeadImport } from './lead-import';
import { readRows, type SourceRow } from './row-source';

type Deps = Needs<'db' | 'clock' | 'leadSignals'>;

/** Rows per chunk: one call of the API's bulk upsert, and one checkpoint. */
export const CHUNK_ROWS = BULK_LEAD_LIMIT;
/** Unknown segment ids an import lists at most. */
const MAX_WARNINGS = 100;

/** How a run ended: the file is read (`done`), the time budget is spent (`paused`: continue later), another run holds the import (`superseded`), or the file is unreadable (`failed`). */
export type RunOutcome = 'done' | 'paused' | 'superseded' | 'failed';

export interface RunOptions {
  /** Epoch milliseconds after which the run stops at its next checkpoint; none: read to the end. */
  readonly deadline?: number;
  /** Told after every checkpoint (the admin CLI's progress bar). */
  readonly onProgress?: (progress: ImportProgress) => void;
  /** Rows per chunk. @default CHUNK_ROWS */
  readonly chunkRows?: number;
}

const progressOf = (r: ImportProgress): ImportProgress => ({ offset: r.offset, rows: r.rows, created: r.created, updated: r.updated, failed: r.failed, duplicates: r.duplicates, warnings: [...r.warnings] });

/**
 * Runs a `running` import from its checkpoint: streams the file from the saved byte offset, and for
 * every chunk of rows upserts the valid ones through the API's own `upsertLeads` (deduplicated, last
 * wins), stores the failed rows for the report, then checkpoints offset and counts in one
 * conditional write. A crash anywhere replays at most the chunk after the last checkpoint; the
 * upsert is idempotent per email, and the replayed chunk's leads created after that checkpoint count
 * as created, so the figures come out as one clean run's. Each chunk's lead signals (created, tags
 * added, segments entered) are reported before its checkpoint, so a replayed chunk reports them
 * again with the same keys (its replayed new leads included) rather than never.
 */
export async function runImport(deps: Deps, record: LeadImport, open: (offset: number) => Promise<NodeJS.ReadableStream>, options: RunOptions = {}): Promise<RunOutcome> {
  const chunkRows = options.chunkRows ?? CHUNK_ROWS;
  let progress = progressOf(record);
  let columns = record.columns;
  let headerEnd: number | undefined;
  // Only the first chunk of a run can replay a crashed one: later chunks follow this run's own checkpoints.
  let replayedSince: string | undefined = record.checkpointed_at ?? record.created_at;

  const settle = async (chunk: readonly SourceRow[]): Promise<boolean> => {
    const next = await settleChunk(deps, record, progress, chunk, replayedSince);
    replayedSince = undefined;
    next.offset = chunk.length > 0 ? chunk[chunk.length - 1].end : Math.max(progress.offset, headerEnd ?? 0);
    const ok = await checkpoint(deps.db, record, progress.offset, next, { checkpointed_at: deps.clock.now().toISOString(), ...(columns ? { columns } : {}) });
    if (ok) {
      progress = next;
      options.onProgress?.(progress);
    }
    return ok;
  };

  const stream = await open(progress.offset);
  const rows = readRows(record.format, stream, { offset: progress.offset, rows: progress.rows, columns }, (c, end) => {
    columns = c;
    headerEnd = end;
  });
  let chunk: SourceRow[] = [];
  try {
    for await (const row of rows) {
      chunk.push(row);
      if (chunk.length < chunkRows) continue;
      const ok = await settle(chunk);
      chunk = [];
      if (!ok) return 'superseded';
      if (options.deadline !== undefined && deps.clock.now().getTime() >= options.deadline) return 'paused';
    }
  } catch (error) {
    if (!(error instanceof ImportFileError)) throw error;
    // The rows read before the fault are settled, so the counts say how far the file was good.
    if (chunk.length > 0 && !(await settle(chunk))) return 'superseded';
    await transition(deps.db, record, 'fail', { error: error.message, finished_at: deps.clock.now().toISOString() });
    return 'failed';
  } finally {
    // Stopping early (paused, superseded, failed) leaves the S3 response open otherwise.
    (stream as NodeJS.ReadableStream & { destroy?: () => void }).destroy?.();
  }
  if (!(await settle(chunk))) return 'superseded';
  await transition(deps.db, record, 'finish', { finished_at: deps.clock.now().toISOString() });
  return 'done';
}

/** One chunk's outcome added to the progress before it (the offset is set by the caller). */
async function settleChunk(deps: Deps, record: LeadImport, before: ImportProgress, chunk: readonly SourceRow[], replayedSince: string | undefined): Promise<ImportProgress> {
  const failed: RowError[] = [];
  const valid = [];
  // The row each email's upsert comes from: the last one (last wins), which a refusal names.
  const rowOf = new Map<string, number>();
  for (const { row } of chunk) {
    if ('error' in row) failed.push(row);
    else {
      valid.push(row.input);
      rowOf.set(row.input.email, row.row);
    }
  }
  const inputs = dedupeLastWins(valid);
  const { results, warnings, refused, signals } =
    inputs.length > 0 ? await upsertLeads(deps.db, deps.clock, record.project_id, inputs, { skipOverLimit: true }) : { results: [], warnings: [], refused: [], signals: [] };
  // A row that would take its lead over a per-lead limit fails alone, in file order with the others.
  failed.push(...refused.map((r) => ({ row: rowOf.get(r.email)!, email: r.email, error: r.problem })));
  failed.sort((a, b) => a.row - b.row);
  let created = results.filter((r) => r.created).length;
  if (replayedSince) {
    // A crashed run may have written part of this chunk: its new leads now look like updates.
    const updated = results.filter((r) => !r.created).map((r) => r.email);
    if (updated.length > 0) {
      const leads = await getLeadsByEmail(deps.db, record.project_id, updated, true);
      const replayed = [...leads.values()].filter((l) => l.created_at > replayedSince);
      created += replayed.length;
      signals.push(...replayed.map(leadCreatedSignal));
    }
  }
  await deps.leadSignals.emit(record.project_id, signals);
  const room = Math.max(0, MAX_REPORTED_ERRORS - before.failed);
  if (room > 0 && failed.length > 0) await putRowErrors(deps.db, record.project_id, record.id, failed.slice(0, room), deps.clock.now());
  return {
    offset: before.offset,
    rows: before.rows + chunk.length,
    created: before.created + created,
    updated: before.updated + results.length - created,
    failed: before.failed + failed.length,
    duplicates: before.duplicates + valid.length - inputs.length,
    warnings: [...new Set([...before.warnings, ...warnings])].slice(0, MAX_WARNINGS),
  };
}
