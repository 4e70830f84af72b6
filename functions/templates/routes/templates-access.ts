import type { FunctionAccess } from '../../../shared/platform/core/function-access';

/** Reading templates: the template items and their list entries. */
export const templatesReadAccess: FunctionAccess = { table: 'read' };

/** Writing templates: the template, its list entry and the project's id counter; a delete also reads the usage markers. */
export const templatesWriteAccess: FunctionAccess = { table: 'readWrite' };
