import { defineAggregate, days, type AccessPattern, type ItemKey } from '../aggregate-definition';

/**
 * Days a DMARC report's rows and its dedupe marker live, counted from the report's day: the API
 * reads at most 90 days back, receivers send a day's report a day or two late, and a month of
 * margin lets a window opened late still find its oldest days.
 */
export const DMARC_RETENTION_DAYS = 120;

/** The partition of one domain's DMARC rows and report markers. */
export const dmarcPartition = (projectId: string, domain: string): string => `DMARC#${projectId}#${domain.toLowerCase()}`;

/** Prefix of the row sort keys, which sort by day. */
export const DMARC_ROW_SK_PREFIX = 'DAY#';

/**
 * Key of one row: the messages of one report (a reporter's report is named by the hash of its
 * org_name and report_id) from one source IP on the report's day. The same report stored twice
 * writes the same keys: a redelivery or a crash between writes never counts a message twice.
 */
export const dmarcRowKey = (projectId: string, domain: string, day: string, reportHash: string, sourceIp: string): ItemKey => ({
  pk: dmarcPartition(projectId, domain),
  sk: `${DMARC_ROW_SK_PREFIX}${day}#${reportHash}#${sourceIp}`,
});

/** The sort-key range of the rows from `fromDay` to `toDay` (YYYY-MM-DD, both included). */
export const dmarcRowRange = (fromDay: string, toDay: string) => ({ from: `${DMARC_ROW_SK_PREFIX}${fromDay}`, to: `${DMARC_ROW_SK_PREFIX}${toDay}#~` });

/** Key of the marker that a report (org_name, report_id) was stored for a domain: a duplicate finds it. */
export const dmarcReportKey = (projectId: string, domain: string, reportHash: string): ItemKey => ({ pk: dmarcPartition(projectId, domain), sk: `REPORT#${reportHash}` });

/** Key of the deployment's daily counters of DMARC report mails: stored, duplicate, and refused by reason. */
export const dmarcIntakeKey = (day: string): ItemKey => ({ pk: `DMARCINTAKE#${day}`, sk: 'DMARCINTAKE' });

/** A domain's DMARC aggregate reports: rows per day, report and source IP, the reports' markers, and the deployment's intake counters. */
export const dmarcReport = /* @__PURE__ */ defineAggregate({
  name: 'DMARC report',
  keys: { dmarcPartition, DMARC_ROW_SK_PREFIX, dmarcRowKey, dmarcRowRange, dmarcReportKey, dmarcIntakeKey, DMARC_RETENTION_DAYS },
  ttl: [
    { attribute: 'ttl', items: 'rows and markers', seconds: /* @__PURE__ */ days(DMARC_RETENTION_DAYS) },
    { attribute: 'ttl', items: 'intake counters', seconds: /* @__PURE__ */ days(DMARC_RETENTION_DAYS) },
  ],
});

/** The access-pattern rows of this file's aggregates (docs/access-patterns.md). */
export const dmarcAccessPatterns: Record<string, readonly AccessPattern[]> = {
  dmarcReport: [
    { pattern: 'DMARC row: a report\'s messages from one source IP', pk: 'DMARC#<p>#<domain>', sk: 'DAY#<day>#<report hash>#<ip>', operation: 'BatchWrite puts (TTL 120 d), Query by day range', wcu: '1 per row, at most 200 rows a report' },
    { pattern: 'DMARC report stored (dedupe by org_name and report_id)', pk: 'DMARC#<p>#<domain>', sk: 'REPORT#<report hash>', operation: 'GetItem, then Put after the rows (TTL 120 d)', wcu: '1 per report stored' },
    { pattern: 'DMARC report mails of the deployment per day, by outcome', pk: 'DMARCINTAKE#<day>', sk: 'DMARCINTAKE', operation: 'UpdateItem ADD (TTL 120 d)', wcu: '1 per report mail' },
  ],
};
