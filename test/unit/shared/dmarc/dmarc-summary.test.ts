import type { AggregateReport, ReportRecord } from '../../../../shared/identities/dmarc/aggregate-report';
import { isSesRecord, MAX_REVERSE_LOOKUPS, MAX_ROWS_PER_REPORT, OTHER_SOURCES, reportDay, reportHash, rowsOfReport, withReverseDns, type DmarcRow } from '../../../../shared/identities/dmarc/dmarc-rows';
import { dmarcIdentityOf, isReportsAddress } from '../../../../shared/identities/dmarc/dmarc-intake';
import { dmarcHealthIssue, summarizeDmarc } from '../../../../shared/identities/dmarc/dmarc-summary';

const DOMAIN = 'example.com';
const record = (sourceIp: string, count: number, pass: boolean, extra: Partial<ReportRecord> = {}): ReportRecord => ({
  sourceIp,
  count,
  disposition: 'none',
  dkim: pass ? 'pass' : 'fail',
  spf: pass ? 'pass' : 'fail',
  dkimResults: pass ? [{ domain: DOMAIN, result: 'pass' }, { domain: 'amazonses.com', result: 'pass' }] : [],
  spfResults: [],
  ...extra,
});
const report = (records: ReportRecord[], overrides: Partial<AggregateReport> = {}): AggregateReport => ({
  schema: 'rfc7489',
  orgName: 'google.com',
  reportId: 'r1',
  begin: Date.parse('2026-11-01T00:00:00Z') / 1000,
  end: Date.parse('2026-11-01T23:59:59Z') / 1000,
  policy: { domain: DOMAIN, p: 'none' },
  records,
  ...overrides,
});

/** One day's row: `messages`, of which `pass` passed, under policy `p`. */
const row = (day: string, messages: number, pass: number, policy = 'none', ip = '192.0.2.1', ses = true): DmarcRow => ({
  day,
  reporter: 'google.com',
  report_id: day,
  source_ip: ip,
  messages,
  dmarc_pass: pass,
  dkim_aligned: pass,
  spf_aligned: pass,
  dkim_pass: pass,
  spf_pass: pass,
  disposition_none: messages,
  disposition_quarantine: 0,
  disposition_reject: 0,
  ses,
  policy,
});
const day = (n: number) => new Date(Date.parse('2026-11-01T00:00:00Z') + (n - 1) * 86_400_000).toISOString().slice(0, 10);
const window = { days: 90, from: '2026-09-01', to: '2026-12-31' };

describe('a report becomes rows per source IP', () => {
  it('sums the records of one IP, counts DMARC passes (aligned DKIM or SPF), dispositions and SES', () => {
    const rows = rowsOfReport(
      report([
        record('192.0.2.1', 10, true),
        record('192.0.2.1', 2, false, { dkim: 'pass', disposition: 'none' }),
        record('203.0.113.4', 3, false, { disposition: 'quarantine', spfResults: [{ domain: 'spoof.example', result: 'pass' }] }),
      ]),
    );
    expect(rows.map((r) => [r.source_ip, r.messages, r.dmarc_pass, r.dkim_aligned, r.spf_aligned, r.spf_pass, r.disposition_quarantine, r.ses])).toEqual([
      ['192.0.2.1', 12, 12, 12, 10, 0, 0, false],
      ['203.0.113.4', 3, 0, 0, 0, 3, 3, false],
    ]);
    expect(rows[0]).toMatchObject({ day: '2026-11-01', reporter: 'google.com', report_id: 'r1', policy: 'none' });
  });

  it('tells SES by its amazonses.com DKIM signature or MAIL FROM, never by a failing one', () => {
    expect(isSesRecord(record('192.0.2.1', 1, true))).toBe(true);
    expect(isSesRecord(record('192.0.2.1', 1, false, { spfResults: [{ domain: 'us-east-1.amazonses.com', result: 'pass' }] }))).toBe(true);
    expect(isSesRecord(record('192.0.2.1', 1, false, { dkimResults: [{ domain: 'amazonses.com', result: 'fail' }] }))).toBe(false);
  });

  it(`keeps at most ${MAX_ROWS_PER_REPORT} rows, summing the smallest sources into one`, () => {
    const records = Array.from({ length: 250 }, (_, i) => record(`10.0.${Math.floor(i / 250)}.${i % 250}`, 1000 - i, true));
    const rows = rowsOfReport(report(records));
    expect(rows).toHaveLength(MAX_ROWS_PER_REPORT);
    expect(rows[rows.length - 1]).toMatchObject({ source_ip: OTHER_SOURCES, messages: records.slice(199).reduce((n, r) => n + r.count, 0) });
    expect(rows.reduce((n, r) => n + r.messages, 0)).toBe(records.reduce((n, r) => n + r.count, 0));
  });

  it('names a report by its reporter and id, and dates it by the middle of its range', () => {
    expect(reportHash({ orgName: 'Google.com', reportId: 'a' })).toBe(reportHash({ orgName: 'google.com', reportId: 'a' }));
    expect(reportHash({ orgName: 'google.com', reportId: 'a' })).not.toBe(reportHash({ orgName: 'yahoo.com', reportId: 'a' }));
    // Microsoft's range ends at the next midnight.
    expect(reportDay({ begin: Date.parse('2026-11-01T00:00:00Z') / 1000, end: Date.parse('2026-11-02T00:00:00Z') / 1000 })).toBe('2026-11-01');
  });
});

describe('the reverse DNS of failing sources', () => {
  it('is looked up once per failing source that is not SES, at most 10 a report, and kept on its row', async () => {
    const asked: string[] = [];
    const reverse = async (ip: string) => (asked.push(ip), ip === '203.0.113.4' ? ['Mail.Forwarder.example.net.'] : []);
    const records = [record('192.0.2.1', 50, true), record('203.0.113.4', 9, false), ...Array.from({ length: 12 }, (_, i) => record(`198.51.100.${i + 1}`, 1, false))];
    const rows = await withReverseDns(rowsOfReport(report(records)), reverse);
    expect(asked).toHaveLength(MAX_REVERSE_LOOKUPS);
    expect(asked).not.toContain('192.0.2.1');
    expect(rows.find((r) => r.source_ip === '203.0.113.4')?.reverse_dns).toBe('mail.forwarder.example.net');
    expect(summarizeDmarc(DOMAIN, rows, window).failing_sources[0]).toMatchObject({ source_ip: '203.0.113.4', reverse_dns: 'mail.forwarder.example.net' });
  });

  it('gives no name, and stores the rows all the same, when a lookup fails or hangs', async () => {
    jest.useFakeTimers();
    try {
      const hanging = withReverseDns(rowsOfReport(report([record('203.0.113.4', 9, false), record('203.0.113.5', 9, false)])), (ip) =>
        ip.endsWith('.4') ? new Promise<string[]>(() => undefined) : Promise.reject(new Error('SERVFAIL')),
      );
      await jest.advanceTimersByTimeAsync(2_000);
      const rows = await hanging;
      expect(rows.map((r) => r.reverse_dns)).toEqual([undefined, undefined]);
    } finally {
      jest.useRealTimers();
    }
  });
});

describe('the policy advice', () => {
  it('says nothing is known without reports', () => {
    expect(summarizeDmarc(DOMAIN, [], window).advice).toMatchObject({ stage: 'no_reports', policy: null });
  });

  it('counts fully aligned days under p=none, then says p=quarantine is ready after 14', () => {
    const thirteen = Array.from({ length: 13 }, (_, i) => row(day(i + 1), 100, 100));
    expect(summarizeDmarc(DOMAIN, thirteen, window).advice).toMatchObject({ stage: 'collecting', aligned_days: 13 });
    const fourteen = [...thirteen, row(day(14), 100, 100)];
    const advice = summarizeDmarc(DOMAIN, fourteen, window).advice;
    expect(advice).toMatchObject({ stage: 'ready_for_quarantine', policy: 'none', aligned_days: 14 });
    expect(advice.message).toContain('ready for p=quarantine');
  });

  it('starts counting again after a day with failures, and says to fix them while the last day fails', () => {
    const rows = [row(day(1), 100, 100), row(day(2), 100, 90, 'none', '203.0.113.4', false), ...Array.from({ length: 10 }, (_, i) => row(day(i + 3), 100, 100))];
    expect(summarizeDmarc(DOMAIN, rows, window).advice).toMatchObject({ stage: 'collecting', aligned_days: 10 });
    const failing = summarizeDmarc(DOMAIN, [...rows, row(day(13), 50, 40, 'none', '203.0.113.4', false)], window).advice;
    expect(failing).toMatchObject({ stage: 'fix_failures', aligned_days: 0 });
    expect(failing.message).toContain('203.0.113.4, which is not SES');
  });

  it('after p=quarantine, counts its own days and then says p=reject; at p=reject it is enforcing', () => {
    const none = Array.from({ length: 20 }, (_, i) => row(day(i + 1), 100, 100));
    const quarantine = Array.from({ length: 14 }, (_, i) => row(day(i + 21), 100, 100, 'quarantine'));
    expect(summarizeDmarc(DOMAIN, [...none, ...quarantine.slice(0, 5)], window).advice).toMatchObject({ stage: 'collecting', policy: 'quarantine', aligned_days: 5 });
    expect(summarizeDmarc(DOMAIN, [...none, ...quarantine], window).advice).toMatchObject({ stage: 'ready_for_reject', policy: 'quarantine', aligned_days: 14 });
    expect(summarizeDmarc(DOMAIN, [...none, row(day(35), 10, 10, 'reject')], window).advice).toMatchObject({ stage: 'enforcing', policy: 'reject' });
  });
});

describe('the pass rate and the failing sources', () => {
  it('sums each day, lists failing sources by failed messages with SES or not, and names them in a health issue', () => {
    const rows = [row(day(1), 80, 80), row(day(1), 12, 0, 'none', '203.0.113.4', false), row(day(2), 8, 6, 'none', '54.240.8.1', true)];
    const summary = summarizeDmarc(DOMAIN, rows, window);
    expect(summary.totals).toEqual({ messages: 100, dmarc_pass: 86, pass_rate: 86, reports: 2 });
    expect(summary.days.map((d) => [d.day, d.messages, d.pass_rate])).toEqual([
      [day(1), 92, 87],
      [day(2), 8, 75],
    ]);
    expect(summary.failing_sources.map((s) => [s.source_ip, s.failed, s.ses])).toEqual([
      ['203.0.113.4', 12, false],
      ['54.240.8.1', 2, true],
    ]);
    expect(dmarcHealthIssue(summary)).toBe(`14% of mail claiming ${DOMAIN} fails DMARC over the last 90 days, from 203.0.113.4 (and 1 other source), which is not SES. See GET /domains/${DOMAIN}/dmarc.`);
  });

  it('raises no health issue below 1% of failing mail (forwarded mail fails a little)', () => {
    const summary = summarizeDmarc(DOMAIN, [row(day(1), 1000, 995), row(day(1), 5, 0, 'none', '203.0.113.4', false)], window);
    expect(dmarcHealthIssue(summary)).toBeUndefined();
  });
});

describe('the reports address', () => {
  const id = '6f1c2a9e-4b7d-4e21-9a3c-0d5e8f7b1a24';
  it('is d-<identity id> at the reports domain, in any case, among any recipients', () => {
    expect(dmarcIdentityOf(['someone@example.com', `D-${id.toUpperCase()}@Dmarc.Example.com`], 'dmarc.example.com')).toBe(id);
    expect(dmarcIdentityOf([`d-${id}@other.example.com`], 'dmarc.example.com')).toBeUndefined();
    expect(dmarcIdentityOf([`d-${id}@dmarc.example.com`], undefined)).toBeUndefined();
  });

  it('claims a d- recipient at the reports domain even with a bad id (refused as unknown, never taken for a reply)', () => {
    expect(isReportsAddress(['d-nonsense@dmarc.example.com'], 'dmarc.example.com')).toBe(true);
    expect(dmarcIdentityOf(['d-nonsense@dmarc.example.com'], 'dmarc.example.com')).toBeUndefined();
    expect(isReportsAddress(['reply+abc@dmarc.example.com', 'd-x@elsewhere.example'], 'dmarc.example.com')).toBe(false);
  });
});
