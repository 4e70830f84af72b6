import type { FunctionAccess } from '../../../shared/platform/core/function-access';

/** A route that only reads leads, their memberships and the suppression list (the marketing status). */
export const readLeads: FunctionAccess = { table: 'read' };

/** A route that writes leads, their memberships and the counters they move. */
export const writeLeads: FunctionAccess = { table: 'readWrite' };
