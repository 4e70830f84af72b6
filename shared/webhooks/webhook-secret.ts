import { randomBytes } from 'node:crypto';
import { GetCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { isConditionalCheckFailure, notFound } from '../errors';
import type { Db } from '../store/client';
import { projectKey } from '../store/keys';
import { WEBHOOK_SECRET_PREFIX } from './signing';
import type { WebhookSlot } from './webhook-job';

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

/**
 * Attribute of the project item holding each slot's secret. The dev slot, where test-key traffic
 * goes, has its own secret so that the test key, which may read it, can never sign a live delivery.
 */
const FIELDS: Readonly<Record<WebhookSlot, string>> = { live: 'webhook_secret', dev: 'webhook_secret_dev' };

/**
 * The secret that signs the project's deliveries to `slot`, created on first need. `if_not_exists` makes creation a conditional
 * write: two concurrent creators both end with the one secret that was stored first. Read strongly
 * consistent, so that a rotated secret is never used again once the rotation has answered.
 * Undefined when the project does not exist.
 */
export async function webhookSecretOf(db: Db, projectId: string, slot: WebhookSlot): Promise<string | undefined> {
  const field = FIELDS[slot];
  const out = await db.doc.send(
    new GetCommand({
      TableName: db.tableName,
      Key: projectKey(projectId),
      ProjectionExpression: 'pk, #s',
      ExpressionAttributeNames: { '#s': field },
      ConsistentRead: true,
    }),
  );
  if (!out.Item) return undefined;
  const stored = out.Item[field];
  if (typeof stored === 'string' && stored) return stored;
  try {
    const updated = await db.doc.send(
      new UpdateCommand({
        TableName: db.tableName,
        Key: projectKey(projectId),
        UpdateExpression: 'SET #s = if_not_exists(#s, :s)',
        ConditionExpression: 'attribute_exists(pk)',
        ExpressionAttributeNames: { '#s': field },
        ExpressionAttributeValues: { ':s': generateWebhookSecret() },
        ReturnValues: 'UPDATED_NEW',
      }),
    );
    return updated.Attributes?.[field] as string;
  } catch (error) {
    if (isConditionalCheckFailure(error)) return undefined;
    throw error;
  }
}

/** The project's secret of `slot` for the API: 404 for a project that vanished. */
export async function readWebhookSecret(db: Db, projectId: string, slot: WebhookSlot): Promise<string> {
  const secret = await webhookSecretOf(db, projectId, slot);
  if (!secret) throw notFound('Project not found');
  return secret;
}

/** Replaces the project's secret of `slot`; deliveries signed after this returns use the new one. */
export async function rotateWebhookSecret(db: Db, projectId: string, slot: WebhookSlot): Promise<string> {
  const field = FIELDS[slot];
  const secret = generateWebhookSecret();
  try {
    await db.doc.send(
      new UpdateCommand({
        TableName: db.tableName,
        Key: projectKey(projectId),
        UpdateExpression: 'SET #s = :s',
        ConditionExpression: 'attribute_exists(pk)',
        ExpressionAttributeNames: { '#s': field },
        ExpressionAttributeValues: { ':s': secret },
      }),
    );
  } catch (error) {
    if (isConditionalCheckFailure(error)) throw notFound('Project not found');
    throw error;
  }
  return secret;
}
