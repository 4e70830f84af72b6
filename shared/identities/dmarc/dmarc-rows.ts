import { createHash } from 'node:crypto';
import type { AggregateReport, ReportRecord } from './aggregate-report';

/** Rows stored per report at most: one per source IP, the smallest sources beyond it summed into one `other` row. */
export const MAX_ROWS_PER_REPORT = 200;

/** The source of the row that sums the sources past MAX_ROWS_PER_REPORT. */
export const OTHER_SOURCES = 'other';

/** What one report says of one source IP on its day: message counts, each an integer. */
export interface DmarcRow {
  day: string;
  reporter: string;
  report_id: string;
  source_ip: string;
  messages: number;
  /** Messages that passed DMARC: aligned DKIM or aligned SPF. */
  dmarc_pass: number;
  dkim_aligned: number;
  spf_aligned: number;
  /** Messages with any passing DKIM signature, aligned or not. */
  dkim_pass: number;
  /** Messages whose SPF check passed, aligned or not. */
  spf_pass: number;
  disposition_none: number;
  disposition_quarantine: number;
  disposition_reject: number;
  /** The source sent through Amazon SES (see isSesRecord). */
  ses: boolean;
  /** The policy (`p`) the receiver found published: what the advice moves on from. */
  policy: string;
  /** The source's reverse DNS name, looked up once when the report is stored, for a failing source that is not SES. */
  reverse_dns?: string;
}

/** The hash naming a report: receivers name reports by (org_name, report_id), which together are unique. */
export function reportHash(report: Pick<AggregateReport, 'orgName' | 'reportId'>): string {
  return createHash('sha256').update(`${report.orgName.toLowerCase()}\n${report.reportId}`).digest('hex').slice(0, 24);
}

/** The UTC day a report covers: the day of the middle of its range (receivers' ranges start at midnight, or end a second before one). */
export function reportDay(report: Pick<AggregateReport, 'begin' | 'end'>): string {
  return new Date(((report.begin + report.end) / 2) * 1000).toISOString().slice(0, 10);
}

/**
 * Whether a record's messages went out through Amazon SES. SES signs every message a second time
 * with its own `amazonses.com` DKIM key, and without a custom MAIL FROM its envelope sender is an
 * amazonses.com address: a passing check of either can only come from SES's servers. (The custom
 * MAIL FROM's SPF names SES too, but the amazonses.com signature is on those messages anyway.)
 */
export function isSesRecord(record: ReportRecord): boolean {
  const sesMailFrom = (d: string) => d === 'amazonses.com' || d.endsWith('.amazonses.com');
  return record.dkimResults.some((r) => r.result === 'pass' && r.domain === 'amazonses.com') || record.spfResults.some((r) => r.result === 'pass' && sesMailFrom(r.domain));
}

/** Reverse DNS lookups per report at most, all at once, each given up after REVERSE_DNS_TIMEOUT_MS. */
export const MAX_REVERSE_LOOKUPS = 10;
export const REVERSE_DNS_TIMEOUT_MS = 1500;

/**
 * Adds the reverse DNS name of the report's largest failing sources that are not SES (what a person
 * needs to tell a forwarder from a spoofer). A lookup that fails or is slow gives no name; the rows
 * are stored all the same.
 */
export async function withReverseDns(rows: DmarcRow[], reverse: ((ip: string) => Promise<string[]>) | undefined): Promise<DmarcRow[]> {
  if (!reverse) return rows;
  const failing = rows.filter((r) => !r.ses && r.dmarc_pass < r.messages && r.source_ip !== OTHER_SOURCES).slice(0, MAX_REVERSE_LOOKUPS);
  const timeout = () => new Promise<string[]>((resolve) => setTimeout(() => resolve([]), REVERSE_DNS_TIMEOUT_MS).unref());
  const names = await Promise.all(failing.map((r) => Promise.race([reverse(r.source_ip).catch(() => []), timeout()])));
  failing.forEach((row, i) => {
    const name = names[i]?.[0]?.replace(/\.$/, '').toLowerCase();
    if (name && name.length <= 253) row.reverse_dns = name;
  });
  return rows;
}

/** The rows of a report: its records summed per source IP, at most MAX_ROWS_PER_REPORT. */
export function rowsOfReport(report: AggregateReport): DmarcRow[] {
  const day = reportDay(report);
  const bySource = new Map<string, DmarcRow>();
  for (const record of report.records) {
    const row = bySource.get(record.sourceIp) ?? emptyRow(day, report, record.sourceIp);
    addRecord(row, record);
    bySource.set(record.sourceIp, row);
  }
  const rows = [...bySource.values()].sort((a, b) => b.messages - a.messages || a.source_ip.localeCompare(b.source_ip));
  if (rows.length <= MAX_ROWS_PER_REPORT) return rows;
  const other = emptyRow(day, report, OTHER_SOURCES);
  for (const row of rows.slice(MAX_ROWS_PER_REPORT - 1)) {
    for (const field of COUNT_FIELDS) other[field] += row[field];
    other.ses = other.ses && row.ses;
  }
  return [...rows.slice(0, MAX_ROWS_PER_REPORT - 1), other];
}

const COUNT_FIELDS = ['messages', 'dmarc_pass', 'dkim_aligned', 'spf_aligned', 'dkim_pass', 'spf_pass', 'disposition_none', 'disposition_quarantine', 'disposition_reject'] as const;

function emptyRow(day: string, report: AggregateReport, sourceIp: string): DmarcRow {
  return {
    day,
    reporter: report.orgName,
    report_id: report.reportId,
    source_ip: sourceIp,
    messages: 0,
    dmarc_pass: 0,
    dkim_aligned: 0,
    spf_aligned: 0,
    dkim_pass: 0,
    spf_pass: 0,
    disposition_none: 0,
    disposition_quarantine: 0,
    disposition_reject: 0,
    ses: true,
    policy: report.policy.p ?? 'none',
  };
}

function addRecord(row: DmarcRow, record: ReportRecord): void {
  const n = record.count;
  const dkimAligned = record.dkim === 'pass';
  const spfAligned = record.spf === 'pass';
  row.messages += n;
  if (dkimAligned || spfAligned) row.dmarc_pass += n;
  if (dkimAligned) row.dkim_aligned += n;
  if (spfAligned) row.spf_aligned += n;
  if (record.dkimResults.some((r) => r.result === 'pass')) row.dkim_pass += n;
  if (record.spfResults.some((r) => r.result === 'pass')) row.spf_pass += n;
  if (record.disposition === 'reject') row.disposition_reject += n;
  else if (record.disposition === 'quarantine') row.disposition_quarantine += n;
  else row.disposition_none += n;
  // A source is SES only if every record of it says so.
  row.ses = row.ses && isSesRecord(record);
}
