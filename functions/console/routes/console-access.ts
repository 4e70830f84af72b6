import type { FunctionAccess } from '../../../shared/platform/core/function-access';

/** The page and its assets are files of the bundle; they read nothing, but no grant is smaller than reading the table. */
export const consolePageAccess: FunctionAccess = { table: 'read' };

/** Sessions are items of the table: put at sign-in, read, deleted at sign-out; keys and projects are read. */
export const consoleSessionAccess: FunctionAccess = { table: 'readWrite' };
