import * as z from '../../platform/core/zod';
import type { WalkPosition } from './campaign-walk';

/** Where an export stands. */
export type ExportStatus = 'running' | 'completed' | 'failed';

/**
 * An outcome export of a campaign: a CSV written to the payload bucket with a multipart upload, one
 * part of about 8 MB at a time, from a checkpoint that names the next part and the walk position.
 * Each attempt at part `part` first claims a physical part number of its own (`part * 10 + claims`),
 * so a duplicate run's upload lands on a number the checkpoint never lists and S3 discards it.
 */
export interface CampaignExport {
  id: string;
  project_id: string;
  campaign_id: string;
  status: ExportStatus;
  created_at: string;
  updated_at: string;
  object_key: string;
  upload_id?: string;
  /** The next logical part (0-based). */
  part: number;
  /** Attempts at `part` so far. */
  claims: number;
  /** The parts written, in order, with the physical numbers and ETags S3 gave them. */
  parts: { partNumber: number; etag: string }[];
  /** Where the next part starts; absent once the whole campaign is read. */
  position?: WalkPosition;
  exhausted: boolean;
  rows: number;
  completed_at?: string;
  error?: string;
  ttl: number;
}

/** A message of the `exports` queue: run the export from its checkpoint (the record, not the message, says where). */
export const exportJobSchema = z.object({ kind: z.literal('run'), project_id: z.string(), campaign_id: z.string(), export_id: z.string() });

export type ExportJob = z.infer<typeof exportJobSchema>;

/** Parses a queue message body; a malformed one throws (and lands in the dead-letter queue). */
export const parseExportJob = (body: string): ExportJob => exportJobSchema.parse(JSON.parse(body));

/** The export as the API shows it; `download_url` only once it is completed. */
export function presentExport(record: CampaignExport, downloadUrl?: string): Record<string, unknown> {
  return {
    id: record.id,
    campaign_id: record.campaign_id,
    status: record.status,
    rows: record.rows,
    parts: record.parts.length,
    created_at: record.created_at,
    completed_at: record.completed_at ?? null,
    error: record.error ?? null,
    download_url: downloadUrl ?? null,
  };
}
