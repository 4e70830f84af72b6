import { parseInclude, readActivity } from '../../shared/activity/activity-service';
import { services } from '../../shared/container';
import { apiHandler } from '../../shared/http/api-handler';
import { projectCaller } from '../../shared/http/api-types';

/** Endpoint group `activity`: activity queries. */
export const handler = apiHandler('activity', {
  'GET /v1/activity/{id}': async (request) => {
    const include = parseInclude(request.query.include);
    const data = await readActivity(services().db, projectCaller(request).project.id, request.params.id ?? '', include);
    return { status: 200, body: { success: true, data } };
  },
});
