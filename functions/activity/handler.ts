import { activityPosition, parseActivityFilters, listActivity } from '../../shared/activity/activity-list';
import { presentActivity } from '../../shared/activity/activity-presenter';
import { parseInclude, readActivity } from '../../shared/activity/activity-service';
import { derivedBatchActivity, queuedBatchMailHtml, withBatchSubjects } from '../../shared/batches/batch-activity';
import { services } from '../../shared/container';
import { apiHandler } from '../../shared/http/api-handler';
import { projectCaller } from '../../shared/http/api-types';
import { boundedPaginationBlock, listCursor, parsePageRequest } from '../../shared/http/pagination';
import { domainStats } from '../../shared/stats/domain-stats-report';

/** Endpoint group `activity`: activity queries and per-domain statistics. */
export const handler = apiHandler('activity', {
  'GET /v1/activity/{id}': async (request) => {
    const include = parseInclude(request.query.include);
    const deps = services();
    // A batch's mail answers before the background fan-out has written its record, and its HTML before it is sent (issue 16).
    const data = await readActivity(deps.db, projectCaller(request).project.id, request.params.id ?? '', include, {
      notYetWritten: (projectId, id) => derivedBatchActivity(deps.db, deps.blobs, projectId, id),
      queuedHtml: (projectId, activity) => queuedBatchMailHtml(deps, projectId, activity.id),
      subjects: (activities) => withBatchSubjects(deps.db, activities),
    });
    return { status: 200, body: { success: true, data } };
  },

  'GET /v1/activity': async (request) => {
    const page = parsePageRequest(request.query);
    const filters = parseActivityFilters(request.query);
    const from = activityPosition(listCursor(request.query, page));
    const { db } = services();
    const listed = await listActivity(db, projectCaller(request).project.id, filters, page, from);
    const filled = await withBatchSubjects(db, listed.data);
    return { status: 200, body: { success: true, data: filled.map((a) => presentActivity(a)), pagination: boundedPaginationBlock(page, listed) } };
  },

  'GET /v1/domain-stats': async (request) => {
    const deps = services();
    return { status: 200, body: await domainStats(deps.db, projectCaller(request).project.id, request.query, deps.clock.now()) };
  },
});
