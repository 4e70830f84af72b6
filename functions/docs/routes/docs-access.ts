import type { FunctionAccess } from '../../../shared/platform/core/function-access';

/**
 * The document and the page are static (bundled); a function has no grant smaller than reading the
 * table, and these routes use nothing else.
 */
export const docsAccess: FunctionAccess = { table: 'read' };
