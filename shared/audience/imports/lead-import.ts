/** The file formats an import reads. */
export const IMPORT_FORMATS = ['csv', 'jsonl'] as const;
export type ImportFormat = (typeof IMPORT_FORMATS)[number];

/**
 * `awaiting_upload`: an upload URL was handed out; `queued`: the file is there and the worker will
 * read it; `running`; `done`; `failed` (the file as a whole could not be read: see `error`).
 */
export type ImportStatus = 'awaiting_upload' | 'queued' | 'running' | 'done' | 'failed';

/** Where the rows stand: what a checkpoint writes after every chunk, all at once. */
export interface ImportProgress {
  /** Bytes of the file read and settled (the resume point). */
  offset: number;
  /** Data rows read and settled (blank lines and the CSV header not counted). */
  rows: number;
  created: number;
  updated: number;
  failed: number;
  /** Rows superseded by a later row of the same email in the same chunk (last wins). */
  duplicates: number;
  /** Segment ids named by rows that are not static segments of the project (the first 100). */
  warnings: string[];
}

/** A lead import, as stored. */
export interface LeadImport extends ImportProgress {
  id: string;
  project_id: string;
  format: ImportFormat;
  status: ImportStatus;
  /** How the file arrived: an upload URL, inline `content`, or the admin CLI reading a local file. */
  source: 'upload' | 'content' | 'cli';
  /** The file's size; null until it is there. */
  total_bytes: number | null;
  /** The CSV header's column names, lowercased; kept so that a run resuming mid-file knows them. */
  columns?: string[];
  /** Why a failed import stopped. */
  error: string | null;
  created_at: string;
  started_at: string | null;
  /** Time of the last checkpoint: a lead created after it was created by the chunk being (re)played. */
  checkpointed_at: string | null;
  finished_at: string | null;
}

/** The file cannot be read as a whole (no header, a broken quote, an endless line): the import fails with this message. */
export class ImportFileError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ImportFileError';
  }
}

/** Failed rows kept for the error report; beyond them only the count grows. */
export const MAX_REPORTED_ERRORS = 10_000;

/** The answer of GET /v1/leads/imports/:id. */
export function presentImport(i: LeadImport) {
  return {
    id: i.id,
    status: i.status,
    format: i.format,
    progress: {
      bytes_read: i.offset,
      total_bytes: i.total_bytes,
      percent: i.status === 'done' ? 100 : i.total_bytes ? Math.min(99, Math.floor((i.offset / i.total_bytes) * 100)) : 0,
    },
    rows_processed: i.rows,
    leads_created: i.created,
    leads_updated: i.updated,
    rows_failed: i.failed,
    duplicates: i.duplicates,
    warnings: i.warnings,
    error: i.error,
    errors_url: `/v1/leads/imports/${i.id}/errors`,
    created_at: i.created_at,
    started_at: i.started_at,
    finished_at: i.finished_at,
  };
}
