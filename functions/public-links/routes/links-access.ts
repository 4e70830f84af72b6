import type { FunctionAccess } from '../../../shared/platform/core/function-access';

/** Reading the mail a token names (its activity), for the unsubscribe page and view-in-browser. */
export const linksReadAccess: FunctionAccess = { table: 'read' };

/** Unsubscribing: suppresses the address, counts it on its campaign, publishes suppression.added. */
export const unsubscribeAccess: FunctionAccess = { table: 'readWrite', enqueue: ['events'] };
