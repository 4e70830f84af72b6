/** An attachment as the API takes it: by URL or by base64 content, never both. */
export interface AttachmentInput {
  filename: string;
  url?: string;
  content?: string;
  contentType?: string;
}

/** `email_type` of the advanced send: transactional (default) goes out untracked and without unsubscribe headers. */
export type AdvancedEmailType = 'transactional' | 'marketing';

/** `x-source` header values (part 4.5): where the request came from; recorded on the activity. */
export type SendSource = 'api' | 'platform' | 'test';

/** A validated `POST /send-email` request (part 4.5). */
export interface AdvancedSendInput {
  /** Deduplicated, lowercased; one mail (and one activity) per recipient. */
  recipients: string[];
  sender: string;
  senderName?: string;
  /** Absent only with `templateId` (the template's subject is used). */
  subject?: string;
  html?: string;
  templateId?: string;
  /** Handlebars variables, applied to `html`/the template and the subject. */
  data?: Record<string, unknown>;
  emailType: AdvancedEmailType;
  campaignId?: string;
  automationRunId?: string;
  /** Raw `scheduled_at` (ISO 8601 or English); resolved by shared/mail-pipeline/scheduling. */
  scheduledAt?: string;
  /** IANA zone for natural-language `scheduled_at`. */
  timezone?: string;
  cc: string[];
  bcc: string[];
  attachments: AttachmentInput[];
  text?: string;
  customHeaders: Record<string, string>;
  inReplyTo?: string;
  references: string[];
  threadId?: string;
  dryRun: boolean;
  environment?: string;
  source?: SendSource;
}

/**
 * What a scheduled send keeps of the request (part 4.5 rule 6): one recipient, no cc, bcc,
 * attachments or sender name; `data` is kept and applied at send time.
 */
export type ScheduledSendContent = Omit<AdvancedSendInput, 'recipients' | 'cc' | 'bcc' | 'attachments' | 'senderName' | 'scheduledAt' | 'timezone' | 'dryRun'> & {
  recipient: string;
};
