import { GetCommand, TransactWriteCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { stripKeys, type Db } from '../store/client';
import { queryAllByPrefix } from '../store/query';
import { versionedPut } from '../store/versioned-put';
import { transactWrite, type TransactItem } from '../store/transact';
import { TEMPLATE_SK_PREFIX, projectKey, templateCounterKey, templateKey, templateNumberKey, templateUsageKey, templateUsagePrefix, templateUsesKey } from '../store/keys';
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

/** Stores a new template and its internal-id lookup in one transaction. */
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
      ],
    }),
  );
}

/** Replaces a template whose stored version is still `expectedVersion` (ConditionFailedError otherwise). */
export async function putTemplateVersion(db: Db, template: Template, expectedVersion: number): Promise<void> {
  await versionedPut(db, { ...templateKey(template.project_id, template.id), ...template }, expectedVersion, 'Template');
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

/** Every template of a project (templates are few per project; lists filter and sort in memory). */
export async function listTemplates(db: Db, projectId: string): Promise<Template[]> {
  const items = await queryAllByPrefix(db, projectKey(projectId).pk, TEMPLATE_SK_PREFIX);
  return items.map((item) => stripKeys<Template>(item));
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
