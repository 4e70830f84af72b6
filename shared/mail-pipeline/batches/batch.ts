/** A batch send (part 4.3) as stored: one small header item; content and recipients live in the blob store. */

/** `scheduled` until its time; `sending` while the fan-out writes its records; `sent` once every chunk is queued. */
export type BatchStatus = 'scheduled' | 'sending' | 'sent' | 'cancelled';

/** One recipient of a batch, after validation and deduplication. */
export interface BatchRecipient {
  email: string;
  name?: string;
  /** Handlebars variables merged over the request's `data`. */
  data?: Record<string, unknown>;
  /** Echoed on the activity record. */
  metadata?: Record<string, unknown>;
}

/** What every mail of the batch shares (given once in the request). */
export interface BatchContent {
  sender: string;
  senderName?: string;
  subject?: string;
  html?: string;
  text?: string;
  templateId?: string;
  data?: Record<string, unknown>;
  emailType: 'transactional' | 'marketing';
  /** Only List-Unsubscribe and List-Unsubscribe-Post are kept (part 4.3). */
  customHeaders: Record<string, string>;
  environment?: string;
  /** Where the API was reached, for unsubscribe links when no public URL is configured. */
  requestBaseUrl?: string;
}

/** The header item of a batch. */
export interface Batch {
  id: string;
  project_id: string;
  mode: 'live' | 'test';
  status: BatchStatus;
  created_at: string;
  updated_at: string;
  /** ISO UTC; absent for a batch sent at once. */
  scheduled_for?: string;
  timezone?: string;
  /** Valid recipients after deduplication; recipient i has activity id `batchActivityId(id, i)`. */
  recipient_count: number;
  duplicates_removed: number;
  chunk_size: number;
  chunk_count: number;
  /** Shown by derived activity records before the fan-out writes the real ones. */
  subject: string;
  sender_email: string;
  sender_name?: string;
  email_type: string;
  template_id?: string;
  environment?: string;
  /** A campaign's wave (docs/campaigns.md): the campaign, and where its cursor stands after this wave. */
  campaign_id?: string;
  campaign_position?: Record<string, unknown>;
  campaign_exhausted?: boolean;
  /**
   * Set on a scheduled batch once the API has written every recipient's activity record (`queued`)
   * at accept, so that lists find them before the batch goes out: its fan-out reads none of them.
   */
  records_written?: boolean;
  /** Chunks the fan-out has finished, and what it found in them. */
  chunks_done?: Set<number> | number[];
  queued_count?: number;
  suppressed_count?: number;
  cancelled_count?: number;
  failed_count?: number;
}
