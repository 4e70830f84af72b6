import { groupRoutes } from '../../../shared/platform/http/route';
import { addSuppressions } from './add-suppressions';
import { deleteSuppression } from './delete-suppression';
import { getSuppression } from './get-suppression';
import { listSuppressions } from './list-suppressions';
import { removeSuppressions } from './remove-suppressions';

/** Endpoint group `suppressions`: the project's suppression list. */
export const suppressionsRoutes = groupRoutes('suppressions', [listSuppressions, addSuppressions, removeSuppressions, getSuppression, deleteSuppression]);
