import { GetCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { stripKeys, type Db } from '../../platform/store/client';
import { conditionalWrite, writtenUnlessConditionFails } from '../../platform/store/conditional-write';
import { campaignExportKey, campaignRunningExportKey } from '../../platform/store/keys';
import { transactWrite } from '../../platform/store/transact';
import type { CampaignExport } from './campaign-export';
import type { WalkPosition } from './campaign-walk';

/**
 * The gateway of a campaign's exports: the export items and the campaign's running-export pointer.
 * The campaign itself is read through the campaign gateway.
 */

/**
 * Stores a new export and points the campaign's export pointer at it, in one transaction that
 * holds only while the pointer is absent or still names `previousExportId` (an export no longer
 * running): parallel starts write one export. False when another start got there first.
 */
export async function putExportUnlessOneRuns(db: Db, record: CampaignExport, previousExportId: string | undefined): Promise<boolean> {
  const outcome = await transactWrite(db, [
    {
      Put: {
        TableName: db.tableName,
        Item: { ...campaignRunningExportKey(record.campaign_id), export_id: record.id, ttl: record.ttl },
        ConditionExpression: previousExportId === undefined ? 'attribute_not_exists(pk)' : 'export_id = :previous',
        ...(previousExportId === undefined ? {} : { ExpressionAttributeValues: { ':previous': previousExportId } }),
      },
    },
    { Put: { TableName: db.tableName, Item: { ...campaignExportKey(record.campaign_id, record.id), ...record }, ConditionExpression: 'attribute_not_exists(pk)' } },
  ]);
  return outcome.written;
}

/** The id of the campaign's latest export (its pointer, read strongly consistent), or undefined. */
export async function latestExportId(db: Db, campaignId: string): Promise<string | undefined> {
  const out = await db.doc.send(new GetCommand({ TableName: db.tableName, Key: campaignRunningExportKey(campaignId), ConsistentRead: true }));
  return out.Item?.export_id as string | undefined;
}

/** Sets `updated_at` of a running export still last updated at `seen`: true for the one caller that moved it. */
export async function touchStalledExport(db: Db, record: CampaignExport, now: string): Promise<boolean> {
  return updateIf(db, record, { updated_at: now }, '#status = :running AND updated_at = :seen', { ':seen': record.updated_at });
}

/** An export of a campaign (strongly consistent: a run resumes from the latest checkpoint), or undefined. */
export async function getExport(db: Db, campaignId: string, exportId: string): Promise<CampaignExport | undefined> {
  const out = await db.doc.send(new GetCommand({ TableName: db.tableName, Key: campaignExportKey(campaignId, exportId), ConsistentRead: true }));
  return out.Item ? stripKeys<CampaignExport>(out.Item) : undefined;
}

/** A conditional SET (and REMOVE of `remove`); false when the condition failed (another run got there first). */
function updateIf(db: Db, record: Pick<CampaignExport, 'campaign_id' | 'id'>, fields: Record<string, unknown>, condition: string, values: Record<string, unknown>, remove: string[] = []): Promise<boolean> {
  const names = Object.keys(fields);
  return writtenUnlessConditionFails(
    db.doc.send(
      new UpdateCommand({
        TableName: db.tableName,
        Key: campaignExportKey(record.campaign_id, record.id),
        UpdateExpression: `SET ${names.map((_, i) => `#f${i} = :f${i}`).join(', ')}${remove.length ? ` REMOVE ${remove.map((_, i) => `#r${i}`).join(', ')}` : ''}`,
        ConditionExpression: condition,
        ExpressionAttributeNames: { '#status': 'status', ...Object.fromEntries(names.map((n, i) => [`#f${i}`, n])), ...Object.fromEntries(remove.map((n, i) => [`#r${i}`, n])) },
        ExpressionAttributeValues: { ':running': 'running', ...values, ...Object.fromEntries(names.map((n, i) => [`:f${i}`, fields[n]])) },
      }),
    ),
  );
}

/** Records the multipart upload's id, unless a concurrent run recorded one first. */
export async function setUploadId(db: Db, record: CampaignExport, uploadId: string, now: string): Promise<boolean> {
  return updateIf(db, record, { upload_id: uploadId, updated_at: now }, '#status = :running AND attribute_not_exists(upload_id)', {});
}

/** Claims an attempt at part `part`: the attempt's number (1 to 9), or undefined when the export moved on. */
export async function claimPart(db: Db, record: CampaignExport, part: number, now: string): Promise<number | undefined> {
  const claim = db.doc.send(
    new UpdateCommand({
      TableName: db.tableName,
      Key: campaignExportKey(record.campaign_id, record.id),
      UpdateExpression: 'SET claims = claims + :one, updated_at = :now',
      ConditionExpression: '#status = :running AND part = :part',
      ExpressionAttributeNames: { '#status': 'status' },
      ExpressionAttributeValues: { ':running': 'running', ':part': part, ':one': 1, ':now': now },
      ReturnValues: 'UPDATED_NEW',
    }),
  );
  const outcome = await conditionalWrite(claim);
  return outcome.written ? Number(outcome.output.Attributes?.claims) : undefined;
}

/** Records part `part` as written and where the next one starts, only if the export is still at that part. */
export async function checkpointPart(
  db: Db,
  record: CampaignExport,
  part: number,
  written: { partNumber: number; etag: string; rows: number; next?: WalkPosition },
  now: string,
): Promise<boolean> {
  const fields: Record<string, unknown> = {
    part: part + 1,
    claims: 0,
    parts: [...record.parts, { partNumber: written.partNumber, etag: written.etag }],
    rows: record.rows + written.rows,
    exhausted: !written.next,
    updated_at: now,
  };
  if (written.next) fields.position = written.next;
  return updateIf(db, record, fields, '#status = :running AND part = :part', { ':part': part }, written.next ? [] : ['position']);
}

/** Moves a running export to `completed` or `failed`. */
export async function finishExport(db: Db, record: CampaignExport, fields: { status: 'completed' | 'failed'; completed_at?: string; error?: string; updated_at: string }): Promise<boolean> {
  return updateIf(db, record, fields, '#status = :running', {});
}
