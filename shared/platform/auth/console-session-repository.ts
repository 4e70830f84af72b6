/** The one gateway of stored console sessions (keys: shared/platform/store/keys.ts, consoleSessionKey). */
import { DeleteCommand, GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import { stripKeys, type Db } from '../store/client';
import { consoleSessionKey } from '../store/keys';
import type { ConsoleSession } from './console-session';

/** Stores a new session under its token's hash; DynamoDB deletes it by TTL after it expires. */
export async function putSession(db: Db, tokenHash: string, session: ConsoleSession): Promise<void> {
  const ttl = Math.ceil(Date.parse(session.expires_at) / 1000);
  await db.doc.send(new PutCommand({ TableName: db.tableName, Item: { ...consoleSessionKey(tokenHash), ...session, ttl }, ConditionExpression: 'attribute_not_exists(pk)' }));
}

/** The session of a token's hash, or undefined (never made, signed out, or deleted by TTL). */
export async function findSession(db: Db, tokenHash: string): Promise<ConsoleSession | undefined> {
  const out = await db.doc.send(new GetCommand({ TableName: db.tableName, Key: consoleSessionKey(tokenHash) }));
  if (!out.Item) return undefined;
  const { ttl: _ttl, ...session } = stripKeys<ConsoleSession & { ttl?: number }>(out.Item);
  return session;
}

/** Ends a session (sign-out); ending one that is gone already is not an error. */
export async function deleteSession(db: Db, tokenHash: string): Promise<void> {
  await db.doc.send(new DeleteCommand({ TableName: db.tableName, Key: consoleSessionKey(tokenHash) }));
}
