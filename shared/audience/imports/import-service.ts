import { randomUUID } from 'node:crypto';
import { Readable } from 'node:stream';
import type { Needs } from '../../platform/core/dependencies';
import { conflict, notFound } from '../../platform/core/errors';
import { uuidParam } from '../leads/lead-input';
import { getProject } from '../../platform/projects/project-repository';
import { logger } from '../../platform/core/logger';
import { queues } from '../../platform/core/queues';
import { leadImportObjectKey } from '../../platform/store/keys';
import { getImport, listRowErrors, putNewImport, transition } from './import-repository';
import type { ImportJob } from './import-job';
import { runImport } from './import-run';
import type { ImportCreateInput } from './import-request';
import { presentImport, type ImportFormat, type ImportProgress, type LeadImport } from './lead-import';

type ApiDeps = Needs<'db' | 'clock' | 'blobs' | 'queue'>;

/** How long an upload URL stays valid. */
export const UPLOAD_URL_SECONDS = 3600;
/** A run's time budget: the worker's timeout less a margin for the chunk in hand and the continuation. */
export const RUN_BUDGET_MS = ((queues.imports.workerTimeoutSeconds ?? 900) - 120) * 1000;

/** A new import record, before its file is read. */
export function newImport(projectId: string, format: ImportFormat, source: LeadImport['source'], now: string, totalBytes: number | null): LeadImport {
  return {
    id: randomUUID(),
    project_id: projectId,
    format,
    status: source === 'upload' ? 'awaiting_upload' : 'queued',
    source,
    total_bytes: totalBytes,
    offset: 0,
    rows: 0,
    created: 0,
    updated: 0,
    failed: 0,
    duplicates: 0,
    warnings: [],
    error: null,
    created_at: now,
    started_at: null,
    checkpointed_at: null,
    finished_at: null,
  };
}

/**
 * POST /v1/leads/imports: `{format, content?}`. With `content` (a small file inline) the file is stored
 * and queued at once; without, the answer carries a presigned URL to PUT the file to, and
 * POST /v1/leads/imports/:id/start queues it once uploaded.
 */
export async function createImport(deps: ApiDeps, projectId: string, input: ImportCreateInput) {
  const { format, content } = input;
  const now = deps.clock.now();
  if (content === undefined) {
    const record = newImport(projectId, format, 'upload', now.toISOString(), null);
    const url = await deps.blobs.uploadUrl(leadImportObjectKey(projectId, record.id), UPLOAD_URL_SECONDS);
    await putNewImport(deps.db, record);
    const expiresAt = new Date(now.getTime() + UPLOAD_URL_SECONDS * 1000).toISOString();
    return { success: true, import: presentImport(record), upload: { method: 'PUT', url, expires_at: expiresAt } };
  }
  const record = newImport(projectId, format, 'content', now.toISOString(), content.length);
  await deps.blobs.put(leadImportObjectKey(projectId, record.id), content);
  await putNewImport(deps.db, record);
  await enqueueRun(deps, record);
  return { success: true, import: presentImport(record) };
}

/** POST /v1/leads/imports/:id/start: the uploaded file is queued; 409 before the upload or once started. */
export async function startImport(deps: ApiDeps, projectId: string, rawId: string | undefined) {
  const record = await requireImport(deps, projectId, rawId);
  if (record.status !== 'awaiting_upload') throw conflict('Import already started', 'IMPORT_STARTED');
  const size = await deps.blobs.size(leadImportObjectKey(projectId, record.id));
  if (size === undefined) throw conflict('Nothing was uploaded for this import yet: PUT the file to the upload URL first', 'IMPORT_NOT_UPLOADED');
  if (!(await transition(deps.db, record, 'enqueue', { total_bytes: size }))) throw conflict('Import already started', 'IMPORT_STARTED');
  await enqueueRun(deps, record);
  return { success: true, import: presentImport({ ...record, status: 'queued', total_bytes: size }) };
}

/** GET /v1/leads/imports/:id: status, progress and counts. */
export async function showImport(deps: Needs<'db'>, projectId: string, rawId: string | undefined) {
  return { success: true, import: presentImport(await requireImport(deps, projectId, rawId)) };
}

/** GET /v1/leads/imports/:id/errors: the failed rows as CSV (`row,email,error`), in file order. */
export async function importErrorReport(deps: Needs<'db'>, projectId: string, rawId: string | undefined): Promise<string> {
  const record = await requireImport(deps, projectId, rawId);
  const errors = await listRowErrors(deps.db, projectId, record.id);
  return ['row,email,error', ...errors.map((e) => [String(e.row), csvCell(e.email), csvCell(e.error)].join(','))].join('\r\n') + '\r\n';
}

/**
 * A CSV cell: quoted when it holds a separator, quote or line break; a leading `=`, `+`, `-` or `@`
 * gets a `'` so that a spreadsheet shows the text rather than running it as a formula.
 */
export function csvCell(value: string): string {
  const safe = /^[=+\-@]/.test(value) ? `'${value}` : value;
  return /[",\r\n]/.test(safe) ? `"${safe.replace(/"/g, '""')}"` : safe;
}

/**
 * The import worker's job: claims a queued import, runs it from its checkpoint for one time budget,
 * and queues its own continuation. On the message's last receive (`lastReceive`), a run that still
 * throws marks the import `failed` with the error, so it does not stay `running` after its message
 * has gone to the dead-letter queue.
 */
export async function runImportJob(deps: Needs<'db' | 'clock' | 'blobs' | 'queue' | 'leadSignals'>, job: ImportJob, options: { lastReceive?: boolean } = {}): Promise<void> {
  let record = await getImport(deps.db, job.project_id, job.import_id);
  if (!record) return;
  if (record.status === 'queued') {
    const startedAt = deps.clock.now().toISOString();
    if (!(await transition(deps.db, record, 'start', { started_at: startedAt }))) return;
    record = { ...record, status: 'running', started_at: startedAt };
  }
  // Done, failed, or never uploaded: a stale or repeated message.
  if (record.status !== 'running') return;
  const key = leadImportObjectKey(record.project_id, record.id);
  const total = record.total_bytes ?? 0;
  const open = async (offset: number) => (offset >= total ? emptyStream() : deps.blobs.readFrom(key, offset));
  let outcome;
  try {
    outcome = await runImport(deps, record, open, { deadline: deps.clock.now().getTime() + RUN_BUDGET_MS });
  } catch (error) {
    if (!options.lastReceive) throw error;
    const reason = error instanceof Error ? error.message : String(error);
    const failed = await transition(deps.db, record, 'fail', {
      error: `The import stopped after ${queues.imports.maxReceiveCount} failed runs: ${reason}`,
      finished_at: deps.clock.now().toISOString(),
    });
    // Another run finished it meanwhile: nothing is lost by letting this message go.
    if (!failed) return;
    logger.error('Lead import failed for good', { projectId: record.project_id, importId: record.id, error: reason });
    return;
  }
  if (outcome === 'paused') await enqueueRun(deps, record);
}

/** A stream with nothing in it: a run resuming at the end of the file reads no bytes (S3 refuses a range past the end). */
async function emptyStream(): Promise<NodeJS.ReadableStream> {
  return Readable.from([]);
}

async function enqueueRun(deps: Needs<'queue'>, record: Pick<LeadImport, 'project_id' | 'id'>): Promise<void> {
  await deps.queue.send('imports', { kind: 'run', project_id: record.project_id, import_id: record.id } satisfies ImportJob);
}

async function requireImport(deps: Needs<'db'>, projectId: string, rawId: string | undefined): Promise<LeadImport> {
  const record = await getImport(deps.db, projectId, uuidParam(rawId, 'import'));
  if (!record) throw notFound('Import not found');
  return record;
}

/**
 * The admin CLI's import: a record (source `cli`, so GET /v1/leads/imports/:id shows it too) run to
 * the end in this process from a file the operator holds, with the same chunks, checks and checkpoints
 * as the worker. `open` reads the file from a byte offset.
 */
export async function importFromFile(
  deps: Needs<'db' | 'clock' | 'leadSignals'>,
  projectId: string,
  format: ImportFormat,
  totalBytes: number,
  open: (offset: number) => Promise<NodeJS.ReadableStream>,
  onProgress?: (progress: ImportProgress) => void,
): Promise<ReturnType<typeof presentImport>> {
  if (!(await getProject(deps.db, projectId))) throw notFound('Project not found');
  const record = newImport(projectId, format, 'cli', deps.clock.now().toISOString(), totalBytes);
  await putNewImport(deps.db, record);
  const startedAt = deps.clock.now().toISOString();
  await transition(deps.db, record, 'start', { started_at: startedAt });
  await runImport(deps, { ...record, status: 'running', started_at: startedAt }, open, { onProgress });
  return presentImport((await getImport(deps.db, projectId, record.id))!);
}
