/** CloudWatch namespace of the mail metrics; the stack's dashboard reads it (lib/monitoring.ts). */
export const METRICS_NAMESPACE = 'Mailroom';
/** The `service` dimension every mail metric carries. */
export const METRICS_SERVICE = 'mailroom';
/** The per-project dimension: one CloudWatch metric per (metric, project) that sent in the hour. */
export const PROJECT_DIMENSION = 'project_id';
/** The metrics, by name. */
export const MAIL_METRICS = ['Sent', 'Failed', 'Bounced', 'Complained'] as const;
export type MailMetric = (typeof MAIL_METRICS)[number];
