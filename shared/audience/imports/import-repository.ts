import { GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import { batchWriteAll } from '../../platform/store/batch-write';
import { stripKeys, type Db } from '../../platform/store/client';
import { queryAll } from '../../platform/store/query';
import { applyTransition, expiryOf, type TransitionValues } from '../../platform/store/aggregate';
import { leadImport } from '../../platform/store/aggregates/audience';
import { leadImportErrorKey, leadImportErrorPartition, leadImportKey } from '../../platform/store/keys';
import type { ImportProgress, LeadImport } from './lead-import';

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

/** A move of an import's state, as leadImport declares it (from which states, to which, setting which fields). */
export type ImportTransition = Exclude<keyof typeof leadImport.transitions, 'checkpoint'>;

/** Moves an import by one of its declared transitions; false when it was not in a `from` state (another caller moved it first). */
export function transition<N extends ImportTransition>(db: Db, record: Pick<LeadImport, 'project_id' | 'id'>, name: N, fields: TransitionValues<(typeof leadImport.transitions)[N]>): Promise<boolean> {
  return applyTransition(db, leadImport, name, leadImportKey(record.project_id, record.id), fields);
}

/**
 * Records a chunk's outcome: the new progress (absolute figures), only if the import is running and
 * still at the offset the chunk started from. False when another run got there first: its figures
 * stand and this run stops, so nothing is counted twice.
 */
export function checkpoint(db: Db, record: Pick<LeadImport, 'project_id' | 'id'>, fromOffset: number, progress: ImportProgress, extra: { checkpointed_at: string; columns?: string[] }): Promise<boolean> {
  return applyTransition(db, leadImport, 'checkpoint', leadImportKey(record.project_id, record.id), { ...progress, ...extra }, {
    expression: '#offset = :from',
    names: { '#offset': 'offset' },
    values: { ':from': fromOffset },
  });
}

/** Writes failed rows for the report (BatchWrite; a replayed chunk rewrites the same items). */
export async function putRowErrors(db: Db, projectId: string, importId: string, errors: readonly RowError[], now: Date): Promise<void> {
  const ttl = expiryOf(leadImport, 'row errors', now);
  await batchWriteAll(db, errors.map((e) => ({ put: { ...leadImportErrorKey(projectId, importId, e.row), ...e, ttl } })));
}

/** Every stored failed row of an import, in file order (at most MAX_REPORTED_ERRORS). */
export async function listRowErrors(db: Db, projectId: string, importId: string): Promise<RowError[]> {
  const items = await queryAll(db, { TableName: db.tableName, KeyConditionExpression: 'pk = :pk', ExpressionAttributeValues: { ':pk': leadImportErrorPartition(projectId, importId) } });
  return items.map((item) => ({ row: Number(item.row), email: String(item.email ?? ''), error: String(item.error) }));
}
