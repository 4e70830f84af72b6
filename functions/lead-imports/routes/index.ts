import { groupRoutes } from '../../../shared/platform/http/route';
import { createImport } from './create-import';
import { getImport } from './get-import';
import { importErrors } from './import-errors';
import { startImport } from './start-import';

/** Endpoint group `lead-imports`: CSV and JSON-lines imports of leads, read in the background. */
export const leadImportsRoutes = groupRoutes('lead-imports', [createImport, getImport, startImport, importErrors]);
