import { GetCommand, PutCommand, QueryCommand } from '@aws-sdk/lib-dynamodb';
import { stripKeys, type Db } from '../../platform/store/client';
import { versionedPut } from '../../platform/store/versioned-put';
import { SENDER_CHECK_PARTITION, SENDER_SK_PREFIX, projectKey, senderCheckIndex, senderConfirmationKey, senderKey } from '../../platform/store/keys';
import type { SenderProfile } from './domain';

function toItem(sender: SenderProfile): Record<string, unknown> {
  return {
    ...senderKey(sender.project_id, sender.from_email),
    ...sender,
    from_email: sender.from_email.toLowerCase(),
    ...(sender.next_check_at ? senderCheckIndex(sender.next_check_at, sender.project_id, sender.from_email) : {}),
  };
}

function fromItem(item: Record<string, unknown>): SenderProfile {
  const { gsi1pk: _a, gsi1sk: _b, ...rest } = stripKeys<Record<string, unknown>>(item);
  return rest as unknown as SenderProfile;
}

/** The sender profile of an address in a project, or undefined. */
export async function getSender(db: Db, projectId: string, email: string, consistent = false): Promise<SenderProfile | undefined> {
  const out = await db.doc.send(new GetCommand({ TableName: db.tableName, Key: senderKey(projectId, email), ConsistentRead: consistent }));
  return out.Item ? fromItem(out.Item) : undefined;
}

/** Every sender profile of a project. */
export async function listSenders(db: Db, projectId: string): Promise<SenderProfile[]> {
  const out = await db.doc.send(
    new QueryCommand({
      TableName: db.tableName,
      KeyConditionExpression: 'pk = :pk AND begins_with(sk, :prefix)',
      ExpressionAttributeValues: { ':pk': projectKey(projectId).pk, ':prefix': SENDER_SK_PREFIX },
    }),
  );
  return (out.Items ?? []).map(fromItem);
}

/** Writes a sender whole, conditional on its version (or on its absence when new); false when another write got there first. */
export function saveSender(db: Db, sender: SenderProfile, expectedVersion: number | 'new'): Promise<boolean> {
  return versionedPut(db, toItem(sender), expectedVersion);
}

/** Magic-link senders whose mailbox check is due. */
export async function sendersDueForCheck(db: Db, nowIso: string, limit = 50): Promise<{ project_id: string; from_email: string }[]> {
  const out = await db.doc.send(
    new QueryCommand({
      TableName: db.tableName,
      IndexName: 'gsi1',
      KeyConditionExpression: 'gsi1pk = :pk AND gsi1sk <= :now',
      ExpressionAttributeValues: { ':pk': SENDER_CHECK_PARTITION, ':now': `${nowIso}#~` },
      Limit: limit,
    }),
  );
  return (out.Items ?? []).map((i) => ({ project_id: i.project_id as string, from_email: i.from_email as string }));
}

/** Stores the lookup from a sender-confirmation link token to its project and address. */
export async function putSenderConfirmation(db: Db, token: string, projectId: string, email: string): Promise<void> {
  await db.doc.send(new PutCommand({ TableName: db.tableName, Item: { ...senderConfirmationKey(token), project_id: projectId, email: email.toLowerCase() } }));
}

/** The sender a confirmation link token points at, or undefined. */
export async function findSenderConfirmation(db: Db, token: string): Promise<{ project_id: string; email: string } | undefined> {
  const out = await db.doc.send(new GetCommand({ TableName: db.tableName, Key: senderConfirmationKey(token), ConsistentRead: true }));
  return out.Item ? { project_id: out.Item.project_id as string, email: out.Item.email as string } : undefined;
}
