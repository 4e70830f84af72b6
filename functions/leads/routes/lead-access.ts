import type { FunctionAccess } from '../../../shared/platform/core/function-access';

/** A route that only reads leads, their memberships and the suppression list (the marketing status). */
export const readLeads: FunctionAccess = { table: 'read' };

/** A route that writes leads, their memberships and the counters they move. */
export const writeLeads: FunctionAccess = { table: 'readWrite' };

/**
 * A route that writes leads and reports what happened to them (a lead created, a tag added, a
 * segment entered or left): automations' dispatcher queues their entries on the `automations` queue.
 */
export const writeLeadsAndSignal: FunctionAccess = { table: 'readWrite', enqueue: ['automations'] };
