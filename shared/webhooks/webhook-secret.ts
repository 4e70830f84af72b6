import { randomBytes } from 'node:crypto';
import { GetCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { isConditionalCheckFailure, notFound } from '../errors';
import type { Db } from '../store/client';
import { projectKey } from '../store/keys';
import { WEBHOOK_SECRET_PREFIX } from './signing';

/** Bytes of HMAC key in a secret (Standard Webhooks uses 24 to 64). */
const SECRET_BYTES = 24;

/** A fresh secret: `whsec_` + base64 of 24 random bytes. */
export function generateWebhookSecret(): string {
  return `${WEBHOOK_SECRET_PREFIX}${randomBytes(SECRET_BYTES).toString('base64')}`;
}

/** True for a string in the secret format (`whsec_` + base64 of 24 bytes). */
export function isWebhookSecret(value: unknown): value is string {
  return typeof value === 'string' && /^whsec_[A-Za-z0-9+/]{32}$/.test(value);
}

/** Attribute of the project item holding the secret. */
const FIELD = 'webhook_secret';

/**
 * The project's webhook secret, created on first need. `if_not_exists` makes creation a conditional
 * write: two concurrent creators both end with the one secret that was stored first. Read strongly
 * consistent, so that a rotated secret is never used again once the rotation has answered.
 * Undefined when the project does not exist.
 */
export async function webhookSecretOf(db: Db, projectId: string): Promise<string | undefined> {
  const out = await db.doc.send(
    new GetCommand({
      TableName: db.tableName,
      Key: projectKey(projectId),
      ProjectionExpression: 'pk, #s',
      ExpressionAttributeNames: { '#s': FIELD },
      ConsistentRead: true,
    }),
  );
  if (!out.Item) return undefined;
  const stored = out.Item[FIELD];
  if (typeof stored === 'string' && stored) return stored;
  try {
    const updated = await db.doc.send(
      new UpdateCommand({
        TableName: db.tableName,
        Key: projectKey(projectId),
        UpdateExpression: 'SET #s = if_not_exists(#s, :s)',
        ConditionExpression: 'attribute_exists(pk)',
        ExpressionAttributeNames: { '#s': FIELD },
        ExpressionAttributeValues: { ':s': generateWebhookSecret() },
        ReturnValues: 'UPDATED_NEW',
      }),
    );
    return updated.Attributes?.[FIELD] as string;
  } catch (error) {
    if (isConditionalCheckFailure(error)) return undefined;
    throw error;
  }
}

/** The project's secret for the API: 404 for a project that vanished. */
export async function readWebhookSecret(db: Db, projectId: string): Promise<string> {
  const secret = await webhookSecretOf(db, projectId);
  if (!secret) throw notFound('Project not found');
  return secret;
}

/** Replaces the project's secret; deliveries signed after this returns use the new one. */
export async function rotateWebhookSecret(db: Db, projectId: string): Promise<string> {
  const secret = generateWebhookSecret();
  try {
    await db.doc.send(
      new UpdateCommand({
        TableName: db.tableName,
        Key: projectKey(projectId),
        UpdateExpression: 'SET #s = :s',
        ConditionExpression: 'attribute_exists(pk)',
        ExpressionAttributeNames: { '#s': FIELD },
        ExpressionAttributeValues: { ':s': secret },
      }),
    );
  } catch (error) {
    if (isConditionalCheckFailure(error)) throw notFound('Project not found');
    throw error;
  }
  return secret;
}
