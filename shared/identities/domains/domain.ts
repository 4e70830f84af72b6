/** Sending domains, their DNS records and sender profiles (part 2). */

export type VerificationStatus = 'pending' | 'verified' | 'failed';
export type RecordStatus = 'not_set' | 'propagating' | 'mismatch' | 'verified';
export type RecordPurpose = 'provider_verification' | 'dkim' | 'spf' | 'dmarc' | 'return_path' | 'reply_mx' | 'tracking_cname';

export interface DnsRecord {
  id: string;
  record_type: 'TXT' | 'CNAME' | 'MX';
  /** Relative to the domain (`@` for the apex). */
  name: string;
  value: string;
  purpose: RecordPurpose;
  status: RecordStatus;
  ttl_hint: number;
  /** Reply MX only; the return-path MX carries its priority inside `value`. */
  priority?: number;
  last_checked_at: string | null;
}

/** What the provider reported at the last verification, as part 4.12's `details`. */
export interface VerificationDetails {
  domain_verification: string;
  dkim_verification: string;
  mail_from_status: string;
}

/** An event decided by a state transition but not yet handed to the events queue. */
export interface PendingEvent {
  event: string;
  timestamp: string;
  data: Record<string, unknown>;
}

export interface SendingDomain {
  project_id: string;
  domain: string;
  identity_id: string;
  verification_status: VerificationStatus;
  /** The provider sends for the domain (may come before DKIM finishes). */
  can_send: boolean;
  sender_profile_id: string;
  verification_token: string;
  dkim_tokens: string[];
  dns_records: DnsRecord[];
  details?: VerificationDetails;
  /** Set once `domain.send_ready` was decided; it is never decided twice. */
  send_ready_at?: string;
  /** Public verification page token (the page lives at /verify/<token>). */
  verification_page_token?: string;
  external_key?: string;
  /** Events decided by the last transition, published and then cleared (crash-safe outbox). */
  pending_events?: PendingEvent[];
  /** Bumped on every write; writes are conditional on it. */
  version: number;
  check_count: number;
  next_check_at?: string;
  last_checked_at: string | null;
  created_at: string;
  updated_at: string;
}

export type SenderSource = 'manual' | 'magic_link' | 'auto-own-email' | 'admin';

/** A sender profile; `domain_authenticated` and `can_send` are derived from its domain when read. */
export interface SenderProfile {
  id: string;
  project_id: string;
  from_name: string;
  from_email: string;
  sender_source: SenderSource;
  /** Magic-link senders: false until the mailbox owner follows this project's own link. Domain senders: true. */
  email_verified: boolean;
  /** Magic-link senders: the mailbox verification failed or expired. */
  verification_failed?: boolean;
  /** Magic-link senders: the token of this project's own confirmation link (never shown). */
  confirmation_token?: string;
  /** Magic-link senders: the public base URL the confirmation link points at. */
  confirmation_base_url?: string;
  /** Magic-link senders: when this project's confirmation mail went to the mailbox. */
  confirmation_sent_at?: string;
  /** Magic-link senders: when the mailbox owner followed this project's own link (what makes it verified). */
  confirmed_at?: string;
  pending_events?: PendingEvent[];
  version: number;
  check_count: number;
  next_check_at?: string;
  created_at: string;
  updated_at: string;
}
