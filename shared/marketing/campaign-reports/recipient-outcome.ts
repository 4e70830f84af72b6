import type { Activity } from '../../mail-pipeline/activity/activity';

/** Why a recipient of a campaign was left out (issue 17, item 8). */
export type LeftOutReason = 'suppressed' | 'unsubscribed' | 'invalid';

/**
 * The report's reason for a record in status `suppressed`, from its `suppression_reason`: the
 * suppression list's reasons (`unsubscribe`, `bounce`, `complaint`, `manual`) as the batch fan-out
 * writes them, and `invalid...` for an address the engine could not send to (docs/campaigns.md).
 */
export function leftOutReason(activity: Pick<Activity, 'current_status' | 'suppression_reason'>): LeftOutReason | undefined {
  if (activity.current_status !== 'suppressed') return undefined;
  const reason = activity.suppression_reason?.toLowerCase() ?? '';
  if (reason.startsWith('unsubscribe')) return 'unsubscribed';
  if (reason.startsWith('invalid')) return 'invalid';
  return 'suppressed';
}

/** One recipient's outcome, as the recipients list and the export show it. */
export interface RecipientOutcome {
  email: string;
  activity_id: string;
  status: Activity['current_status'];
  sent_at: string | null;
  delivered_at: string | null;
  /** Opened by a person: machine opens (Apple Mail Privacy Protection, scanners) do not count. */
  opened: boolean;
  opened_at: string | null;
  machine_opened: boolean;
  clicked: boolean;
  clicked_at: string | null;
  bounced: boolean;
  bounced_at: string | null;
  complained: boolean;
  left_out_reason: LeftOutReason | null;
}

/** The outcome of one campaign mail. */
export function recipientOutcome(a: Activity): RecipientOutcome {
  return {
    email: a.recipient_primary,
    activity_id: a.id,
    status: a.current_status,
    sent_at: a.sent_at ?? null,
    delivered_at: a.delivered_at ?? null,
    opened: Boolean(a.human_opened_at),
    opened_at: a.human_opened_at ?? null,
    machine_opened: Boolean(a.machine_opened_at),
    clicked: Boolean(a.clicked_first_at),
    clicked_at: a.clicked_first_at ?? null,
    bounced: Boolean(a.bounced_at),
    bounced_at: a.bounced_at ?? null,
    complained: Boolean(a.complained_at),
    left_out_reason: leftOutReason(a) ?? null,
  };
}

/** Columns of the export, in order. */
export const OUTCOME_COLUMNS: readonly (keyof RecipientOutcome)[] = [
  'email',
  'activity_id',
  'status',
  'sent_at',
  'delivered_at',
  'opened',
  'opened_at',
  'machine_opened',
  'clicked',
  'clicked_at',
  'bounced',
  'bounced_at',
  'complained',
  'left_out_reason',
];

/** A CSV field (RFC 4180): quoted when it holds a comma, quote or line break; a leading =+-@ is neutralised against spreadsheet formulas. */
function csvField(value: unknown): string {
  if (value === null || value === undefined) return '';
  let text = String(value);
  if (/^[=+\-@\t\r]/.test(text)) text = `'${text}`;
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

/** The CSV header line. */
export const outcomeCsvHeader = (): string => `${OUTCOME_COLUMNS.join(',')}\r\n`;

/** One outcome as a CSV line. */
export const outcomeCsvLine = (o: RecipientOutcome): string => `${OUTCOME_COLUMNS.map((c) => csvField(o[c])).join(',')}\r\n`;
