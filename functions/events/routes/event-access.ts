import type { FunctionAccess } from '../../../shared/platform/core/function-access';

/** Recording events writes them, and the leads of unknown emails with the project's lead count. */
export const recordEvents: FunctionAccess = { table: 'readWrite' };

/** Listing events only reads them. */
export const readEvents: FunctionAccess = { table: 'read' };
