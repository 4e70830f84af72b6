import { GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import { batchWriteAll } from '../store/batch-write';
import { stripKeys, ttlAfterDays, type Db } from '../store/client';
import { queryAll } from '../store/query';
import { setFieldsIf } from '../store/set-fields';
import { leadImportErrorKey, leadImportErrorPartition, leadImportKey } from '../store/keys';
import type { ImportProgress, ImportStatus, LeadImport } from './lead-import';

/** Days an import's row errors are kept for the report. */
export const IMPORT_ERROR_RETENTION_DAYS = 30;

/** One failed row, as the report lists it. */
export interface RowError {
  row: number;
  email: string;
  error: string;
}

/** Stores a new import. */
export async function putNewImport(db: Db, record: LeadImport): Promise<void> {
  await db.doc.send(new PutCommand({ TableName: db.tableName, Item: { ...leadImportKey(record.project_id, record.id), ...record }, ConditionExpression: 'attribute_not_exists(pk)' }));
}

/** One import of a project (strongly consistent: a run resumes from the latest checkpoint), or undefined. */
export async function getImport(db: Db, projectId: string, importId: string): Promise<LeadImport | undefined> {
  const out = await db.doc.send(new GetCommand({ TableName: db.tableName, Key: leadImportKey(projectId, importId), ConsistentRead: true }));
  return out.Item ? stripKeys<LeadImport>(out.Item) : undefined;
}

/** Moves an import between states if it is still in `from`; false when it was not (another caller moved it first). */
export async function transition(db: Db, record: Pick<LeadImport, 'project_id' | 'id'>, from: ImportStatus, fields: Partial<LeadImport> & { status: ImportStatus }): Promise<boolean> {
  return setFieldsIf(db, leadImportKey(record.project_id, record.id), fields, { expression: '#status = :from', names: { '#status': 'status' }, values: { ':from': from } });
}

/**
 * Records a chunk's outcome: the new progress (absolute figures), only if the import is running and
 * still at the offset the chunk started from. False when another run got there first: its figures
 * stand and this run stops, so nothing is counted twice.
 */
export async function checkpoint(db: Db, record: Pick<LeadImport, 'project_id' | 'id'>, fromOffset: number, progress: ImportProgress, extra: { checkpointed_at: string; columns?: string[] }): Promise<boolean> {
  return setFieldsIf(db, leadImportKey(record.project_id, record.id), { ...progress, ...extra }, {
    expression: '#status = :running AND #offset = :from',
    names: { '#status': 'status', '#offset': 'offset' },
    values: { ':running': 'running', ':from': fromOffset },
  });
}

/** Writes failed rows for the report (BatchWrite; a replayed chunk rewrites the same items). */
export async function putRowErrors(db: Db, projectId: string, importId: string, errors: readonly RowError[], now: Date): Promise<void> {
  const ttl = ttlAfterDays(now, IMPORT_ERROR_RETENTION_DAYS);
  await batchWriteAll(db, errors.map((e) => ({ put: { ...leadImportErrorKey(projectId, importId, e.row), ...e, ttl } })));
}

/** Every stored failed row of an import, in file order (at most MAX_REPORTED_ERRORS). */
export async function listRowErrors(db: Db, projectId: string, importId: string): Promise<RowError[]> {
  const items = await queryAll(db, { TableName: db.tableName, KeyConditionExpression: 'pk = :pk', ExpressionAttributeValues: { ':pk': leadImportErrorPartition(projectId, importId) } });
  return items.map((item) => ({ row: Number(item.row), email: String(item.email ?? ''), error: String(item.error) }));
}
