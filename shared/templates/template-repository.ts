import { DeleteCommand, GetCommand, PutCommand, TransactWriteCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { stripKeys, type Db } from '../store/client';
import { queryAllByPrefix } from '../store/query';
import { versionedPut } from '../store/versioned-put';
import { TEMPLATE_SK_PREFIX, projectKey, templateCounterKey, templateKey, templateNumberKey, templateUsageKey, templateUsagePrefix } from '../store/keys';
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

/** Deletes a template and its internal-id lookup together. */
export async function deleteTemplate(db: Db, template: Template): Promise<void> {
  await db.doc.send(
    new TransactWriteCommand({
      TransactItems: [
        { Delete: { TableName: db.tableName, Key: templateKey(template.project_id, template.id) } },
        { Delete: { TableName: db.tableName, Key: templateNumberKey(template.project_id, template.internal_id) } },
      ],
    }),
  );
}

/** Records that a campaign or automation step uses a template (idempotent). */
export async function addTemplateUsage(db: Db, projectId: string, templateId: string, kind: TemplateUsageKind, usedById: string, now: Date = new Date()): Promise<void> {
  await db.doc.send(
    new PutCommand({
      TableName: db.tableName,
      Item: { ...templateUsageKey(projectId, templateId, kind, usedById), template_id: templateId, kind, used_by_id: usedById, created_at: now.toISOString() },
    }),
  );
}

/** Removes a usage marker (a campaign or step that no longer uses the template). */
export async function removeTemplateUsage(db: Db, projectId: string, templateId: string, kind: TemplateUsageKind, usedById: string): Promise<void> {
  await db.doc.send(new DeleteCommand({ TableName: db.tableName, Key: templateUsageKey(projectId, templateId, kind, usedById) }));
}

/** The campaigns and automation steps that use a template. */
export async function listTemplateUsage(db: Db, projectId: string, templateId: string): Promise<TemplateUsage[]> {
  const items = await queryAllByPrefix(db, projectKey(projectId).pk, templateUsagePrefix(templateId));
  return items.map((item) => ({ kind: item.kind as TemplateUsageKind, id: String(item.used_by_id) }));
}
