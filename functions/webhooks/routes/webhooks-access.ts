import type { FunctionAccess } from '../../../shared/platform/core/function-access';

/** A slot's signing secret, on the project item: created on first read, replaced by a rotation. */
export const webhookSecretAccess: FunctionAccess = { table: 'readWrite' };

/** Reading the failed deliveries. */
export const webhookFailuresAccess: FunctionAccess = { table: 'read' };

/** Reading the project item (its settings). */
export const projectSettingsReadAccess: FunctionAccess = { table: 'read' };

/** Changing fields of the project item. */
export const projectSettingsWriteAccess: FunctionAccess = { table: 'readWrite' };

/** Reading the delivery log. */
export const webhookDeliveriesAccess: FunctionAccess = { table: 'read' };

/**
 * Reading a kept payload and queueing it again; the table write is the idempotency record of a call
 * with an Idempotency-Key.
 */
export const webhookRedeliveryAccess: FunctionAccess = { table: 'readWrite', enqueue: ['webhooks'] };
