import type { FunctionAccess } from '../../../shared/platform/core/function-access';

/**
 * Recording events writes them, and the leads of unknown emails with the project's lead count, then
 * reports them: automations' dispatcher queues their entries on the `automations` queue.
 */
export const recordEvents: FunctionAccess = { table: 'readWrite', enqueue: ['automations'] };

/** Listing events only reads them. */
export const readEvents: FunctionAccess = { table: 'read' };
