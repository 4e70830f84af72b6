import type { Needs } from '../../platform/core/dependencies';
import { logger } from '../../platform/core/logger';
import { DMARC_RETENTION_DAYS } from '../../platform/store/keys';
import { countIntake, findReportedDomain, reportStored, storeReport } from './dmarc-repository';
import { reportDay, reportHash, rowsOfReport, withReverseDns } from './dmarc-rows';
import { DMARC_LIMITS, reportsOfRawMail, type ReportRefusal } from './report-mail';

/**
 * DMARC aggregate reports received by mail: every registered domain publishes
 * `rua=mailto:d-<identity_id>@<reports domain>`, so the address names the identity, and a report
 * is stored only under that identity's domain, and only when the report's policy domain is that
 * domain or a subdomain of it. Anyone can mail the address: everything else is refused, counted
 * (the day's intake counters) and logged, and nothing of it is stored.
 */

/** What became of one report (or of a mail that gave none). */
export type DmarcOutcome =
  | 'stored'
  /** The same (org_name, report_id) was stored before for the domain. */
  | 'duplicate'
  | ReportRefusal
  /** No registered domain carries the address's identity id (nor the report's domain). */
  | 'unknown_identity'
  /** The report's domain is registered, but not under the address's identity. */
  | 'domain_mismatch'
  /** The report's dates are older than the retention or in the future. */
  | 'out_of_range';

/** One report's outcome. */
export interface DmarcReportOutcome {
  outcome: DmarcOutcome;
  reporter?: string;
  report_id?: string;
  domain?: string;
  rows?: number;
}

/** What became of a report mail: `stored` when at least one report was, else the first refusal. */
export interface DmarcIntakeResult {
  outcome: DmarcOutcome;
  reports: DmarcReportOutcome[];
}

const DMARC_ADDRESS = /^d-([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})@(.+)$/i;

/** The identity id of the first recipient that is a DMARC reports address (`d-<identity_id>@<reports domain>`), or undefined. */
export function dmarcIdentityOf(recipients: readonly string[], reportsDomain: string | undefined): string | undefined {
  if (!reportsDomain) return undefined;
  for (const address of recipients) {
    const match = DMARC_ADDRESS.exec(address.trim());
    if (match && match[2]!.toLowerCase() === reportsDomain.toLowerCase()) return match[1]!.toLowerCase();
  }
  return undefined;
}

/** Whether a recipient is at the reports domain at all (a `d-` address with a bad id is refused as unknown, not treated as a reply). */
export function isReportsAddress(recipients: readonly string[], reportsDomain: string | undefined): boolean {
  if (!reportsDomain) return false;
  return recipients.some((a) => /^d-/i.test(a) && a.toLowerCase().endsWith(`@${reportsDomain.toLowerCase()}`));
}

/**
 * Reads, checks and stores the reports of one mail sent to the identity's address. Safe to run
 * again for the same mail (a redelivered S3 event): rows are puts of the same keys and the marker
 * comes last, so a crash between the two writes only means the rows are written again.
 */
export async function ingestDmarcMail(deps: Needs<'db' | 'clock'> & Partial<Needs<'dns'>>, input: { identityId: string | undefined; raw: Buffer; objectKey: string }): Promise<DmarcIntakeResult> {
  const now = deps.clock.now();
  const today = now.toISOString().slice(0, 10);
  const finish = async (reports: DmarcReportOutcome[]): Promise<DmarcIntakeResult> => {
    const counts: Record<string, number> = {};
    for (const r of reports) counts[r.outcome] = (counts[r.outcome] ?? 0) + 1;
    await countIntake(deps.db, today, counts);
    const outcome = reports.find((r) => r.outcome === 'stored')?.outcome ?? reports[0]?.outcome ?? 'not_a_report';
    const log = outcome === 'stored' || outcome === 'duplicate' ? logger.info.bind(logger) : logger.warn.bind(logger);
    log('DMARC report mail', { key: input.objectKey, identity_id: input.identityId, outcome, reports });
    return { outcome, reports };
  };

  if (!input.identityId) return finish([{ outcome: 'unknown_identity' }]);
  if (input.raw.length > DMARC_LIMITS.maxMailBytes) return finish([{ outcome: 'too_large' }]);
  const { reports, refusals } = await reportsOfRawMail(input.raw);
  if (reports.length === 0) return finish([{ outcome: refusals[0] ?? 'not_a_report' }]);

  const outcomes: DmarcReportOutcome[] = [];
  for (const report of reports) {
    const named = { reporter: report.orgName.slice(0, 200), report_id: report.reportId.slice(0, 200), domain: report.policy.domain };
    const oldest = now.getTime() / 1000 - DMARC_RETENTION_DAYS * 86_400;
    if (report.end < oldest || report.begin > now.getTime() / 1000 + 2 * 86_400) {
      outcomes.push({ outcome: 'out_of_range', ...named });
      continue;
    }
    const at = await findReportedDomain(deps.db, input.identityId, report.policy.domain);
    if (at === undefined || at === 'mismatch') {
      outcomes.push({ outcome: at === 'mismatch' ? 'domain_mismatch' : 'unknown_identity', ...named });
      continue;
    }
    const hash = reportHash(report);
    if (await reportStored(deps.db, at, hash)) {
      outcomes.push({ outcome: 'duplicate', ...named });
      continue;
    }
    const rows = await withReverseDns(rowsOfReport(report), deps.dns?.reverse?.bind(deps.dns));
    await storeReport(deps.db, at, hash, rows, { reporter: named.reporter, reportId: named.report_id, storedAt: now.toISOString() });
    outcomes.push({ outcome: 'stored', ...named, domain: at.domain, rows: rows.length });
    logger.info('DMARC report stored', { project_id: at.projectId, domain: at.domain, day: reportDay(report), reporter: named.reporter, rows: rows.length });
  }
  return finish(outcomes);
}
