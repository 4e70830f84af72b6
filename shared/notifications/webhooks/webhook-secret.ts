import { randomBytes } from 'node:crypto';
import { notFound } from '../../platform/core/errors';
import { keepFirstWebhookSecret, replaceWebhookSecret, storedWebhookSecret } from '../../platform/projects/project-repository';
import type { Db } from '../../platform/store/client';
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
 * The secret that signs the project's deliveries to `slot`, created on first need (the dev slot,
 * where test-key traffic goes, has its own secret so that the test key, which may read it, can
 * never sign a live delivery). Creation keeps the first secret stored, so two concurrent creators
 * both end with one secret. Undefined when the project does not exist.
 */
export async function webhookSecretOf(db: Db, projectId: string, slot: WebhookSlot): Promise<string | undefined> {
  const stored = await storedWebhookSecret(db, projectId, slot);
  if (!stored.exists) return undefined;
  return stored.secret ?? (await keepFirstWebhookSecret(db, projectId, slot, generateWebhookSecret()));
}

/** The project's secret of `slot` for the API: 404 for a project that vanished. */
export async function readWebhookSecret(db: Db, projectId: string, slot: WebhookSlot): Promise<string> {
  const secret = await webhookSecretOf(db, projectId, slot);
  if (!secret) throw notFound('Project not found');
  return secret;
}

/** Replaces the project's secret of `slot`; deliveries signed after this returns use the new one. */
export async function rotateWebhookSecret(db: Db, projectId: string, slot: WebhookSlot): Promise<string> {
  const secret = generateWebhookSecret();
  if (!(await replaceWebhookSecret(db, projectId, slot, secret))) throw notFound('Project not found');
  return secret;
}
