import { GetCommand, PutCommand, QueryCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { batchWriteAll } from '../../platform/store/batch-write';
import { stripKeys, type Db } from '../../platform/store/client';
import { dmarcIntakeKey, dmarcPartition, dmarcReportKey, dmarcRowKey, dmarcRowRange, DMARC_RETENTION_DAYS, DOMAIN_SWEEP_PARTITION } from '../../platform/store/keys';
import { queryUpTo } from '../../platform/store/query';
import type { DmarcRow } from './dmarc-rows';

/**
 * The stored DMARC reports of a domain (rows per day, report and source IP, and each report's
 * marker) and the deployment's daily intake counters. Rows and markers expire DMARC_RETENTION_DAYS
 * after the report's day.
 */

/** Rows one read returns at most (90 days of a domain that many receivers report on). */
export const MAX_ROWS_READ = 20_000;

/** A registered domain a report may be stored under. */
export interface ReportedDomain {
  projectId: string;
  domain: string;
}

/** The epoch second at which a report's items expire. */
export function expiryOfDay(day: string): number {
  return Math.floor(Date.parse(`${day}T00:00:00Z`) / 1000) + DMARC_RETENTION_DAYS * 86_400;
}

/**
 * The registered domain whose identity id is `identityId`, if its name is the report's policy
 * domain or one of its parents; `mismatch` when those names are registered but under other
 * identities. One Query of the deployment's domain list (gsi2) per name tried.
 */
export async function findReportedDomain(db: Db, identityId: string, policyDomain: string): Promise<ReportedDomain | 'mismatch' | undefined> {
  const labels = policyDomain.toLowerCase().split('.');
  let seen = false;
  // Parents down to two labels (a registered domain is never a bare TLD); at most 8 names tried.
  for (let i = 0; i <= labels.length - 2 && i < 8; i++) {
    const name = labels.slice(i).join('.');
    const out = await db.doc.send(
      new QueryCommand({
        TableName: db.tableName,
        IndexName: 'gsi2',
        KeyConditionExpression: 'gsi2pk = :pk AND begins_with(gsi2sk, :name)',
        ExpressionAttributeValues: { ':pk': DOMAIN_SWEEP_PARTITION, ':name': `${name}#` },
        ProjectionExpression: 'project_id, #d, identity_id',
        ExpressionAttributeNames: { '#d': 'domain' },
      }),
    );
    for (const item of out.Items ?? []) {
      seen = true;
      if (item.identity_id === identityId) return { projectId: String(item.project_id), domain: String(item.domain) };
    }
  }
  return seen ? 'mismatch' : undefined;
}

/** Whether the report named `hash` was stored for the domain before. 0.5 RCU. */
export async function reportStored(db: Db, at: ReportedDomain, hash: string): Promise<boolean> {
  const out = await db.doc.send(new GetCommand({ TableName: db.tableName, Key: dmarcReportKey(at.projectId, at.domain, hash), ProjectionExpression: 'pk' }));
  return out.Item !== undefined;
}

/** Writes a report's rows (puts: writing them again writes the same items), then its marker. 1 WCU per row, 1 for the marker. */
export async function storeReport(db: Db, at: ReportedDomain, hash: string, rows: readonly DmarcRow[], meta: { reporter: string; reportId: string; storedAt: string }): Promise<void> {
  const day = rows[0]?.day;
  await batchWriteAll(
    db,
    rows.map((row) => ({ put: { ...dmarcRowKey(at.projectId, at.domain, row.day, hash, row.source_ip), ...row, ttl: expiryOfDay(row.day) } })),
  );
  const expiry = day ? expiryOfDay(day) : Math.floor(Date.parse(meta.storedAt) / 1000) + DMARC_RETENTION_DAYS * 86_400;
  await db.doc.send(
    new PutCommand({
      TableName: db.tableName,
      Item: { ...dmarcReportKey(at.projectId, at.domain, hash), reporter: meta.reporter, report_id: meta.reportId, rows: rows.length, stored_at: meta.storedAt, ttl: expiry },
    }),
  );
}

/** Adds one report mail's outcomes to the day's intake counters. 1 WCU. */
export async function countIntake(db: Db, day: string, counts: Readonly<Record<string, number>>): Promise<void> {
  const fields = Object.entries(counts).filter(([, n]) => n > 0);
  if (fields.length === 0) return;
  await db.doc.send(
    new UpdateCommand({
      TableName: db.tableName,
      Key: dmarcIntakeKey(day),
      UpdateExpression: `ADD ${fields.map((_, i) => `#f${i} :v${i}`).join(', ')} SET #ttl = if_not_exists(#ttl, :ttl)`,
      ExpressionAttributeNames: { ...Object.fromEntries(fields.map(([f], i) => [`#f${i}`, f])), '#ttl': 'ttl' },
      ExpressionAttributeValues: { ...Object.fromEntries(fields.map(([, v], i) => [`:v${i}`, v])), ':ttl': expiryOfDay(day) },
    }),
  );
}

/** The intake counters of one day (outcome -> mails or reports), empty when none. */
export async function readIntake(db: Db, day: string): Promise<Record<string, number>> {
  const out = await db.doc.send(new GetCommand({ TableName: db.tableName, Key: dmarcIntakeKey(day), ConsistentRead: true }));
  const item = out.Item ? stripKeys<Record<string, unknown>>(out.Item) : {};
  delete item.ttl;
  return Object.fromEntries(Object.entries(item).map(([k, v]) => [k, Number(v)]));
}

/** A domain's rows from `fromDay` to `toDay`, at most MAX_ROWS_READ (oldest first). */
export async function readRows(db: Db, projectId: string, domain: string, fromDay: string, toDay: string): Promise<DmarcRow[]> {
  const range = dmarcRowRange(fromDay, toDay);
  const items = await queryUpTo(
    db,
    {
      TableName: db.tableName,
      KeyConditionExpression: 'pk = :pk AND sk BETWEEN :from AND :to',
      ExpressionAttributeValues: { ':pk': dmarcPartition(projectId, domain), ':from': range.from, ':to': range.to },
    },
    MAX_ROWS_READ,
  );
  return items.map((item) => {
    const row = stripKeys<Record<string, unknown>>(item);
    delete row.ttl;
    return row as unknown as DmarcRow;
  });
}
