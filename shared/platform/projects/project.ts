/** A project: the unit of isolation. Stored fields; `live_key_hash`/`test_key_hash` never leave the service. */
export interface Project {
  id: string;
  organization_id: string;
  name: string;
  slug: string;
  timezone?: string;
  country?: string;
  webhook_url?: string | null;
  webhook_url_dev?: string | null;
  inbound_webhook_url?: string | null;
  inbound_webhook_url_dev?: string | null;
  /** Environment name to URL; a send's `environment` must be a key of this map. */
  inbound_webhook_environments?: Record<string, string>;
  disabled_at?: string | null;
  /**
   * Mails per UTC calendar month (a whole number, 0 or more), `'unlimited'`, or absent/null for the
   * deployment default DEFAULT_MONTHLY_QUOTA; see shared/mail-pipeline/quota/monthly-quota.ts.
   */
  monthly_quota?: number | 'unlimited' | null;
  /**
   * Set while the project's marketing mail is paused by the reputation watch
   * (shared/identities/reputation/project-reputation.ts); removed when an operator resumes.
   */
  marketing_pause?: MarketingPause;
  /**
   * The `at` of the pause whose `project.marketing_paused` event went out: a pause without it (a
   * crash between the pause and the publish) is announced at the watch's next check.
   */
  marketing_pause_announced?: string;
  /** When an operator last resumed marketing: the watch measures from this hour on. */
  marketing_resumed_at?: string;
  /** The live counts the hour of the resume held when it happened: the watch leaves them out. */
  marketing_resume_baseline?: { sent: number; bounced: number; complained: number };
  /**
   * The project's own SES tenant, set only once the tenant exists with the project's identities and
   * the configuration set associated (SES refuses a send through a tenant otherwise): from then on
   * every send names it.
   */
  ses_tenant?: { name: string; id: string; arn: string; provisioned_at: string };
  created_at: string;
  live_key_hash: string;
  test_key_hash: string;
}

/** Why the reputation watch paused a project's marketing mail: the rate, the level it passed, the sample it was measured on. */
export interface MarketingPause {
  reason: 'bounce_rate' | 'complaint_rate';
  rate: number;
  threshold: number;
  sample: number;
  /** The start of the measured window. */
  since: string;
  at: string;
}

/** A slug from a name: lowercase words joined by dashes, plus a short suffix that keeps it unique. */
export function slugify(name: string, suffix: string): string {
  const base = name
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 40);
  return `${base || 'project'}-${suffix}`;
}
