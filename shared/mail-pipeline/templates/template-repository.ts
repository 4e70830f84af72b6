import { GetCommand, PutCommand, TransactWriteCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { cursorOfStartKey, partitionListQuery, readBoundedPage } from '../../platform/store/bounded-list';
import { startKeyOfCursor } from '../../platform/http/cursor';
import type { BoundedTotal, PageRequest } from '../../platform/http/pagination';
import { stripKeys, type Db } from '../../platform/store/client';
import { queryAllByPrefix } from '../../platform/store/query';
import { contentionBackoff, transactWrite, type TransactItem } from '../../platform/store/transact';
import {
  TEMPLATE_SK_PREFIX,
  projectKey,
  templateCounterKey,
  templateEntryKey,
  templateKey,
  templateListIndex,
  templateListPartition,
  templateNumberKey,
  templateUsageKey,
  templateUsagePrefix,
  templateUsesKey,
  templatesIndexedKey,
} from '../../platform/store/keys';
import type { Template } from './template';

/** What uses a template: a campaign, or an automation step (node). */
export type TemplateUsageKind = 'campaign' | 'automation';

export interface TemplateUsage {
  kind: TemplateUsageKind;
  /** The campaign id or the automation node id. */
  id: string;
}

/**
 * Allocates the project's next template internal id: an atomic ADD on a per-project counter, so
 * concurrent creates never share a number.
 */
export async function allocateTemplateInternalId(db: Db, projectId: string): Promise<number> {
  const out = await db.doc.send(
    new UpdateCommand({
      TableName: db.tableName,
      Key: templateCounterKey(projectId),
      UpdateExpression: 'ADD seq :one',
      ExpressionAttributeValues: { ':one': 1 },
      ReturnValues: 'UPDATED_NEW',
    }),
  );
  const seq = out.Attributes?.seq;
  if (typeof seq !== 'number') throw new Error('Template counter returned no number');
  return seq;
}

/**
 * The Put of a template's list entry: every field but the HTML, the lowercased name that `search`
 * matches, and its gsi1 position (newest update first). Written in the transaction of every write
 * of the template, so the list never sees an entry older or newer than the template.
 */
function putTemplateEntry(db: Db, template: Template): TransactItem {
  const { html: _html, ...fields } = template;
  return {
    Put: {
      TableName: db.tableName,
      Item: {
        ...templateEntryKey(template.project_id, template.id),
        ...templateListIndex(template.project_id, template.updated_at, template.internal_id),
        ...fields,
        name_lc: template.name.toLowerCase(),
      },
    },
  };
}

/** Stores a new template, its internal-id lookup and its list entry in one transaction. */
export async function putNewTemplate(db: Db, template: Template): Promise<void> {
  await db.doc.send(
    new TransactWriteCommand({
      TransactItems: [
        { Put: { TableName: db.tableName, Item: { ...templateKey(template.project_id, template.id), ...template }, ConditionExpression: 'attribute_not_exists(pk)' } },
        {
          Put: {
            TableName: db.tableName,
            Item: { ...templateNumberKey(template.project_id, template.internal_id), template_id: template.id },
            ConditionExpression: 'attribute_not_exists(pk)',
          },
        },
        putTemplateEntry(db, template),
      ],
    }),
  );
}

/**
 * Replaces a template whose stored version is still `expectedVersion`, and its list entry, in one
 * transaction. False when the version changed or another transaction held the template (the caller
 * re-reads and retries).
 */
export async function putTemplateVersion(db: Db, template: Template, expectedVersion: number): Promise<boolean> {
  const outcome = await transactWrite(db, [
    {
      Put: {
        TableName: db.tableName,
        Item: { ...templateKey(template.project_id, template.id), ...template },
        ConditionExpression: '#version = :v',
        ExpressionAttributeNames: { '#version': 'version' },
        ExpressionAttributeValues: { ':v': expectedVersion },
      },
    },
    putTemplateEntry(db, template),
  ]);
  return outcome.written;
}

/** A template by uuid, or undefined. */
export async function getTemplate(db: Db, projectId: string, templateId: string): Promise<Template | undefined> {
  const out = await db.doc.send(new GetCommand({ TableName: db.tableName, Key: templateKey(projectId, templateId) }));
  return out.Item ? stripKeys<Template>(out.Item) : undefined;
}

/** A template by its internal id (through the lookup item), or undefined. */
export async function getTemplateByInternalId(db: Db, projectId: string, internalId: number): Promise<Template | undefined> {
  const out = await db.doc.send(new GetCommand({ TableName: db.tableName, Key: templateNumberKey(projectId, internalId) }));
  const templateId = out.Item?.template_id;
  if (typeof templateId !== 'string') return undefined;
  return getTemplate(db, projectId, templateId);
}

/**
 * One page of the project's templates, most recently updated first, optionally only those whose
 * name contains `search` (lowercased; filtered in DynamoDB on the entry's `name_lc`), from the list's
 * start or a cursor's start key, with its bounded total (shared/platform/store/bounded-list.ts). Read from the
 * list entries (gsi1, no HTML): `html` comes back empty.
 */
export async function pageTemplateEntries(
  db: Db,
  projectId: string,
  page: PageRequest,
  search: string | undefined,
  cursor: string | undefined,
): Promise<{ templates: Template[] } & BoundedTotal> {
  const part = templateListPartition(projectId);
  const from = startKeyOfCursor(cursor, ['pk', 'sk', part.pkName, part.skName], (k) => k[part.pkName] === part.pk);
  await ensureTemplateEntries(db, projectId);
  const query = partitionListQuery(db, part, search ? { expression: 'contains(#name_lc, :search)', names: { '#name_lc': 'name_lc' }, values: { ':search': search } } : undefined);
  const listed = await readBoundedPage(db, query, page, from);
  return { templates: listed.items.map(templateOfEntry), total: listed.total, totalIsEstimate: listed.totalIsEstimate, nextCursor: cursorOfStartKey(listed.next) };
}

/** A template read from its list entry: `html` empty. */
function templateOfEntry(item: Record<string, unknown>): Template {
  const { gsi1pk: _pk, gsi1sk: _sk, name_lc: _name, ...fields } = stripKeys<Record<string, unknown>>(item);
  return { ...(fields as Omit<Template, 'html'>), html: '' };
}

/** Entries written at once while a project's templates get theirs. */
const BACKFILL_PARALLEL = 10;
const BACKFILL_ATTEMPTS = 5;

/**
 * Gives every template written before list entries existed its entry, once per project: while the
 * project's marker is absent, reads its templates (the one read of every template, HTML included)
 * and writes each one's entry on the condition that the template still has the version read (a
 * template changed or deleted since wrote or removed its entry itself), then the marker.
 * Idempotent and safe under parallel lists: they write the same entries. A failure leaves the
 * marker unwritten, so the next list does it again. Afterwards a list costs one GetItem more.
 */
async function ensureTemplateEntries(db: Db, projectId: string): Promise<void> {
  const marker = await db.doc.send(new GetCommand({ TableName: db.tableName, Key: templatesIndexedKey(projectId) }));
  if (marker.Item) return;
  const templates = (await queryAllByPrefix(db, projectKey(projectId).pk, TEMPLATE_SK_PREFIX)).map((item) => stripKeys<Template>(item));
  for (let i = 0; i < templates.length; i += BACKFILL_PARALLEL) {
    await Promise.all(templates.slice(i, i + BACKFILL_PARALLEL).map((template) => writeEntryOfUnchanged(db, template)));
  }
  await db.doc.send(new PutCommand({ TableName: db.tableName, Item: { ...templatesIndexedKey(projectId), indexed_at: new Date().toISOString() } }));
}

/** Writes a template's entry if the template still has the version read; retries a conflict with another transaction. */
async function writeEntryOfUnchanged(db: Db, template: Template): Promise<void> {
  for (let attempt = 1; ; attempt++) {
    const outcome = await transactWrite(db, [
      {
        ConditionCheck: {
          TableName: db.tableName,
          Key: templateKey(template.project_id, template.id),
          ConditionExpression: '#version = :v',
          ExpressionAttributeNames: { '#version': 'version' },
          ExpressionAttributeValues: { ':v': template.version },
        },
      },
      putTemplateEntry(db, template),
    ]);
    // Cancelled by its condition: the template changed or went since it was read, and that write kept its entry.
    if (outcome.written || outcome.failedConditions.length > 0) return;
    if (attempt >= BACKFILL_ATTEMPTS) throw new Error('Writing a template list entry conflicted with other transactions');
    await contentionBackoff(attempt);
  }
}

/**
 * Deletes a template and its internal-id lookup together. Unless `force`, the transaction also
 * checks that the template's use count is zero, so a use recorded between the caller's look at the
 * markers and this delete cancels it: false then, and nothing is deleted.
 */
export async function deleteTemplate(db: Db, template: Template, force = false): Promise<boolean> {
  const items: TransactItem[] = [
    { Delete: { TableName: db.tableName, Key: templateKey(template.project_id, template.id) } },
    { Delete: { TableName: db.tableName, Key: templateNumberKey(template.project_id, template.internal_id) } },
    { Delete: { TableName: db.tableName, Key: templateEntryKey(template.project_id, template.id) } },
  ];
  if (!force) {
    items.push({
      ConditionCheck: {
        TableName: db.tableName,
        Key: templateUsesKey(template.project_id, template.id),
        ConditionExpression: 'attribute_not_exists(pk) OR #uses <= :zero',
        ExpressionAttributeNames: { '#uses': 'uses' },
        ExpressionAttributeValues: { ':zero': 0 },
      },
    });
  }
  const outcome = await transactWrite(db, items);
  if (outcome.written) return true;
  if (outcome.failedConditions.length > 0) return false;
  throw new Error('Template delete conflicted with another transaction');
}

/**
 * The transaction actions that record a use of a template, to run in the same transaction that
 * creates the user (a campaign): the template must still exist (ConditionCheck), the marker is new,
 * and the use count goes up by one. A template deleted concurrently cancels the user's creation.
 * Three actions, 2 write units each (the check costs 2 too).
 */
export function recordTemplateUsageActions(db: Db, projectId: string, templateId: string, kind: TemplateUsageKind, usedById: string, now: string): TransactItem[] {
  return [
    { ConditionCheck: { TableName: db.tableName, Key: templateKey(projectId, templateId), ConditionExpression: 'attribute_exists(pk)' } },
    {
      Put: {
        TableName: db.tableName,
        Item: { ...templateUsageKey(projectId, templateId, kind, usedById), template_id: templateId, kind, used_by_id: usedById, created_at: now },
        ConditionExpression: 'attribute_not_exists(pk)',
      },
    },
    {
      Update: {
        TableName: db.tableName,
        Key: templateUsesKey(projectId, templateId),
        UpdateExpression: 'ADD #uses :one',
        ExpressionAttributeNames: { '#uses': 'uses' },
        ExpressionAttributeValues: { ':one': 1 },
      },
    },
  ];
}

/** Records a use of a template on its own (automation steps; campaigns record theirs in their creation transaction). False when the template is gone or the use was already recorded. */
export async function recordTemplateUsage(db: Db, projectId: string, templateId: string, kind: TemplateUsageKind, usedById: string, now: Date): Promise<boolean> {
  const outcome = await transactWrite(db, recordTemplateUsageActions(db, projectId, templateId, kind, usedById, now.toISOString()));
  if (outcome.written) return true;
  if (outcome.failedConditions.length > 0) return false;
  throw new Error('Recording a template use conflicted with another transaction');
}

/**
 * Removes a usage marker and takes one off the use count, together. Idempotent: a marker already
 * removed (a redelivered completion, a cancel after completion) changes nothing.
 */
export async function releaseTemplateUsage(db: Db, projectId: string, templateId: string, kind: TemplateUsageKind, usedById: string): Promise<boolean> {
  const outcome = await transactWrite(db, [
    { Delete: { TableName: db.tableName, Key: templateUsageKey(projectId, templateId, kind, usedById), ConditionExpression: 'attribute_exists(pk)' } },
    {
      Update: {
        TableName: db.tableName,
        Key: templateUsesKey(projectId, templateId),
        UpdateExpression: 'ADD #uses :minus',
        ExpressionAttributeNames: { '#uses': 'uses' },
        ExpressionAttributeValues: { ':minus': -1 },
      },
    },
  ]);
  if (outcome.written) return true;
  if (outcome.failedConditions.length > 0) return false;
  throw new Error('Releasing a template use conflicted with another transaction');
}

/** The campaigns and automation steps that use a template. */
export async function listTemplateUsage(db: Db, projectId: string, templateId: string): Promise<TemplateUsage[]> {
  const items = await queryAllByPrefix(db, projectKey(projectId).pk, templateUsagePrefix(templateId));
  return items.map((item) => ({ kind: item.kind as TemplateUsageKind, id: String(item.used_by_id) }));
}
