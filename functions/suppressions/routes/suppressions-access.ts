import type { FunctionAccess } from '../../../shared/platform/core/function-access';

/** Reading the list and its entries. */
export const suppressionsReadAccess: FunctionAccess = { table: 'read' };

/** Adding entries: the entries only (suppression.added is for automatic ones). */
export const suppressionsAddAccess: FunctionAccess = { table: 'readWrite' };

/** Removing entries, each removal publishing suppression.removed (the events queue). */
export const suppressionsRemoveAccess: FunctionAccess = { table: 'readWrite', enqueue: ['events'] };
