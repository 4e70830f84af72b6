import type { DmarcRow } from './dmarc-rows';

/** Days of fully aligned mail after which a stricter policy is advised. */
export const ALIGNED_DAYS_FOR_ADVICE = 14;

/** Failing sources listed at most. */
export const MAX_FAILING_SOURCES = 50;

/** Percent of failing mail from which `/domains/health` raises an issue (forwarded mail makes a little noise). */
export const DMARC_FAIL_WARNING_PERCENT = 1;

/** One day of a domain's reports. */
export interface DmarcDay {
  day: string;
  messages: number;
  dmarc_pass: number;
  /** Percent of messages that passed DMARC, one decimal. */
  pass_rate: number;
  dkim_aligned: number;
  spf_aligned: number;
  quarantined: number;
  rejected: number;
}

/** A source IP some of whose mail failed DMARC. */
export interface FailingSource {
  source_ip: string;
  messages: number;
  failed: number;
  /** Whether the source sends through Amazon SES (its mail carries SES's own DKIM signature or MAIL FROM). */
  ses: boolean;
  reporters: string[];
  last_seen: string;
  /** Its reverse DNS name, where it was looked up and found; null otherwise (and for SES sources). */
  reverse_dns: string | null;
}

export type DmarcStage = 'no_reports' | 'fix_failures' | 'collecting' | 'ready_for_quarantine' | 'ready_for_reject' | 'enforcing';

/** What to do next with the domain's DMARC policy. */
export interface DmarcAdvice {
  stage: DmarcStage;
  /** The policy receivers found at the last report. */
  policy: string | null;
  /** Calendar days, up to the last report, during which every message passed under the current policy. */
  aligned_days: number;
  message: string;
}

/** The answer of `GET /domains/{domain}/dmarc`. */
export interface DmarcSummary {
  domain: string;
  window: { days: number; from: string; to: string };
  totals: { messages: number; dmarc_pass: number; pass_rate: number | null; reports: number };
  days: DmarcDay[];
  failing_sources: FailingSource[];
  advice: DmarcAdvice;
}

const rate = (pass: number, total: number): number => Math.round((pass / total) * 1000) / 10;
const DAY_MS = 86_400_000;
const daysBetween = (from: string, to: string): number => Math.round((Date.parse(to) - Date.parse(from)) / DAY_MS);

/** The summary of a domain's rows over a window (rows outside it are ignored). */
export function summarizeDmarc(domain: string, rows: readonly DmarcRow[], window: { days: number; from: string; to: string }): DmarcSummary {
  const inWindow = rows.filter((r) => r.day >= window.from && r.day <= window.to);
  const byDay = new Map<string, DmarcDay>();
  const policyByDay = new Map<string, string>();
  const sources = new Map<string, FailingSource>();
  const reports = new Set<string>();
  for (const row of inWindow) {
    reports.add(`${row.reporter}\n${row.report_id}`);
    const day = byDay.get(row.day) ?? { day: row.day, messages: 0, dmarc_pass: 0, pass_rate: 0, dkim_aligned: 0, spf_aligned: 0, quarantined: 0, rejected: 0 };
    day.messages += row.messages;
    day.dmarc_pass += row.dmarc_pass;
    day.dkim_aligned += row.dkim_aligned;
    day.spf_aligned += row.spf_aligned;
    day.quarantined += row.disposition_quarantine;
    day.rejected += row.disposition_reject;
    byDay.set(row.day, day);
    // The strictest policy any receiver saw that day: a change shows the day it was published.
    policyByDay.set(row.day, strictest(policyByDay.get(row.day), row.policy));
    const failed = row.messages - row.dmarc_pass;
    if (failed > 0) {
      const source = sources.get(row.source_ip) ?? { source_ip: row.source_ip, messages: 0, failed: 0, ses: true, reporters: [], last_seen: row.day, reverse_dns: null as string | null };
      source.messages += row.messages;
      source.failed += failed;
      source.ses = source.ses && row.ses;
      if (!source.reporters.includes(row.reporter) && source.reporters.length < 10) source.reporters.push(row.reporter);
      if (row.day > source.last_seen) source.last_seen = row.day;
      if (!source.reverse_dns && row.reverse_dns) source.reverse_dns = row.reverse_dns;
      sources.set(row.source_ip, source);
    }
  }
  const days = [...byDay.values()].sort((a, b) => a.day.localeCompare(b.day)).map((d) => ({ ...d, pass_rate: d.messages > 0 ? rate(d.dmarc_pass, d.messages) : 100 }));
  const messages = days.reduce((n, d) => n + d.messages, 0);
  const pass = days.reduce((n, d) => n + d.dmarc_pass, 0);
  const failing = [...sources.values()].sort((a, b) => b.failed - a.failed || a.source_ip.localeCompare(b.source_ip)).slice(0, MAX_FAILING_SOURCES);
  return {
    domain,
    window,
    totals: { messages, dmarc_pass: pass, pass_rate: messages > 0 ? rate(pass, messages) : null, reports: reports.size },
    days,
    failing_sources: failing,
    advice: adviceOf(domain, days, policyByDay, failing),
  };
}

const STRICTNESS = ['none', 'quarantine', 'reject'];
function strictest(a: string | undefined, b: string): string {
  if (a === undefined) return b;
  return STRICTNESS.indexOf(b) > STRICTNESS.indexOf(a) ? b : a;
}

/**
 * The advice: publish p=quarantine once every message of the last 14 days (up to the last report)
 * passed under p=none, then p=reject after 14 more fully aligned days under p=quarantine.
 */
function adviceOf(domain: string, days: readonly DmarcDay[], policyByDay: Map<string, string>, failing: readonly FailingSource[]): DmarcAdvice {
  const last = days[days.length - 1];
  if (!last) {
    return {
      stage: 'no_reports',
      policy: null,
      aligned_days: 0,
      message: `No DMARC report for ${domain} in this window: check that _dmarc.${domain} is published as GET /domains/${domain}/dns-records gives it, and wait a day or two for receivers to report.`,
    };
  }
  const policy = policyByDay.get(last.day) ?? 'none';
  // Back from the last day: the run of days under the same policy in which every message passed.
  let runStart = last.day;
  let brokenBy: string | undefined;
  for (let i = days.length - 1; i >= 0; i--) {
    const day = days[i]!;
    if (policyByDay.get(day.day) !== policy) {
      brokenBy = day.day;
      break;
    }
    if (day.dmarc_pass < day.messages) {
      brokenBy = day.day;
      break;
    }
    runStart = day.day;
  }
  // A run that reaches the window's first report is counted from that report only.
  const alignedDays = last.dmarc_pass < last.messages ? 0 : brokenBy ? daysBetween(brokenBy, last.day) : daysBetween(runStart, last.day) + 1;
  const worst = failing[0];
  if (policy === 'reject') {
    return { stage: 'enforcing', policy, aligned_days: alignedDays, message: `${domain} publishes p=reject: receivers refuse mail that fails DMARC. Keep watching the failing sources.` };
  }
  const next = policy === 'quarantine' ? 'reject' : 'quarantine';
  if (alignedDays >= ALIGNED_DAYS_FOR_ADVICE) {
    return {
      stage: next === 'quarantine' ? 'ready_for_quarantine' : 'ready_for_reject',
      policy,
      aligned_days: alignedDays,
      message: `Every message claiming ${domain} has passed DMARC for ${alignedDays} days: ready for p=${next}. Change the _dmarc.${domain} record's p=${policy} to p=${next}.`,
    };
  }
  if (last.dmarc_pass < last.messages && worst) {
    return {
      stage: 'fix_failures',
      policy,
      aligned_days: 0,
      message: `Some mail claiming ${domain} fails DMARC, most from ${worst.source_ip}${worst.ses ? ', which is SES: check the DKIM records of the domain' : ', which is not SES: if it is yours, send it through this API or sign it with DKIM; otherwise it is spoofed'}. Keep p=${policy} until ${ALIGNED_DAYS_FOR_ADVICE} days pass without failures.`,
    };
  }
  return {
    stage: 'collecting',
    policy,
    aligned_days: alignedDays,
    message: `Every message claiming ${domain} has passed DMARC for ${alignedDays} of the ${ALIGNED_DAYS_FOR_ADVICE} days needed before p=${next}.`,
  };
}

/**
 * The `/domains/health` issue of a domain's reports, if enough of its mail fails: "12% of mail
 * claiming example.com fails DMARC, from 203.0.113.4, which is not SES".
 */
export function dmarcHealthIssue(summary: DmarcSummary): string | undefined {
  const { messages, dmarc_pass: pass } = summary.totals;
  const worst = summary.failing_sources[0];
  if (messages === 0 || !worst) return undefined;
  const failing = ((messages - pass) / messages) * 100;
  if (failing < DMARC_FAIL_WARNING_PERCENT) return undefined;
  const percent = Math.round(failing * 10) / 10;
  const others = summary.failing_sources.length - 1;
  const from = `from ${worst.source_ip}${others > 0 ? ` (and ${others} other source${others === 1 ? '' : 's'})` : ''}`;
  const which = worst.ses ? 'which is SES: the domain\'s DKIM signature or MAIL FROM does not align' : 'which is not SES';
  return `${percent}% of mail claiming ${summary.domain} fails DMARC over the last ${summary.window.days} days, ${from}, ${which}. See GET /domains/${summary.domain}/dmarc.`;
}
