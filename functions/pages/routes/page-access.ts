import type { FunctionAccess } from '../../../shared/platform/core/function-access';

/** What a page that only looks its token up touches: the table, read. */
export const readPage: FunctionAccess = { table: 'read' };
