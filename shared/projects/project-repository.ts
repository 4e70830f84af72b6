import { GetCommand, TransactWriteCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { ConditionFailedError, isConditionalCheckFailure } from '../errors';
import { stripKeys, type Db } from '../store/client';
import { apiKeyKey, projectKey } from '../store/keys';
import type { KeyMode } from '../auth/api-keys';
import type { Project } from './project';

const HASH_FIELD: Record<KeyMode, 'live_key_hash' | 'test_key_hash'> = { live: 'live_key_hash', test: 'test_key_hash' };

/** The stored project, or undefined. */
export async function getProject(db: Db, projectId: string): Promise<Project | undefined> {
  const out = await db.doc.send(new GetCommand({ TableName: db.tableName, Key: projectKey(projectId) }));
  return out.Item ? stripKeys<Project>(out.Item) : undefined;
}

/** Creates a project and its two key lookups in one transaction (all or nothing). */
export async function createProjectWithKeys(db: Db, project: Project): Promise<void> {
  const lookup = (hash: string, mode: KeyMode) => ({
    Put: {
      TableName: db.tableName,
      Item: { ...apiKeyKey(hash), project_id: project.id, mode },
      ConditionExpression: 'attribute_not_exists(pk)',
    },
  });
  await db.doc.send(
    new TransactWriteCommand({
      TransactItems: [
        {
          Put: {
            TableName: db.tableName,
            Item: { ...projectKey(project.id), ...project },
            ConditionExpression: 'attribute_not_exists(pk)',
          },
        },
        lookup(project.live_key_hash, 'live'),
        lookup(project.test_key_hash, 'test'),
      ],
    }),
  );
}

/**
 * Replaces a project's live or test key: the old lookup is deleted in the same transaction, so the
 * old key stops working at once. Fails with ConditionFailedError if another rotation won the race.
 */
export async function replaceProjectKey(db: Db, projectId: string, mode: KeyMode, oldHash: string, newHash: string): Promise<void> {
  const field = HASH_FIELD[mode];
  try {
    await db.doc.send(
      new TransactWriteCommand({
        TransactItems: [
          {
            Update: {
              TableName: db.tableName,
              Key: projectKey(projectId),
              UpdateExpression: 'SET #f = :new',
              ConditionExpression: '#f = :old',
              ExpressionAttributeNames: { '#f': field },
              ExpressionAttributeValues: { ':new': newHash, ':old': oldHash },
            },
          },
          { Delete: { TableName: db.tableName, Key: apiKeyKey(oldHash) } },
          {
            Put: {
              TableName: db.tableName,
              Item: { ...apiKeyKey(newHash), project_id: projectId, mode },
              ConditionExpression: 'attribute_not_exists(pk)',
            },
          },
        ],
      }),
    );
  } catch (error) {
    if ((error as { name?: string }).name === 'TransactionCanceledException') {
      throw new ConditionFailedError(`Key of project ${projectId} changed concurrently`, { cause: error });
    }
    throw error;
  }
}

/** Sets or clears `disabled_at` (partner soft-disable and reactivation). */
export async function setProjectDisabledAt(db: Db, projectId: string, disabledAt: string | null): Promise<void> {
  try {
    await db.doc.send(
      new UpdateCommand({
        TableName: db.tableName,
        Key: projectKey(projectId),
        UpdateExpression: 'SET disabled_at = :d',
        ConditionExpression: 'attribute_exists(pk)',
        ExpressionAttributeValues: { ':d': disabledAt },
      }),
    );
  } catch (error) {
    if (isConditionalCheckFailure(error)) throw new ConditionFailedError(`No project ${projectId}`, { cause: error });
    throw error;
  }
}

/** Which project and mode a key hash belongs to; strongly consistent so a rotated key fails at once. */
export async function findApiKey(db: Db, hash: string): Promise<{ project_id: string; mode: KeyMode } | undefined> {
  const out = await db.doc.send(new GetCommand({ TableName: db.tableName, Key: apiKeyKey(hash), ConsistentRead: true }));
  return out.Item ? { project_id: out.Item.project_id as string, mode: out.Item.mode as KeyMode } : undefined;
}
