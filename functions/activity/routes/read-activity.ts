import { activityAnswerSchema, activityRecordExample } from '../../../shared/mail-pipeline/activity/activity-answers';
import { activityIncludeQuerySchema, readActivity as readRecord, toInclude } from '../../../shared/mail-pipeline/activity/activity-service';
import { derivedBatchActivity, queuedBatchMailHtml, withBatchSubjects } from '../../../shared/mail-pipeline/batches/batch-activity';
import { services } from '../../../composition/services';
import { errors, json } from '../../../shared/platform/http/answers';
import { defineRoute } from '../../../shared/platform/http/route';
import { readActivityAccess } from './activity-access';

/** `GET /v1/activity/{id}` (4.11): one record, with its HTML and timeline on request. */
export const readActivity = defineRoute({
  method: 'GET',
  path: '/v1/activity/{id}',
  auth: 'project',
  summary: 'One activity record',
  query: activityIncludeQuerySchema,
  answers: {
    200: json(activityAnswerSchema, 'The record', {
      success: true,
      data: {
        ...activityRecordExample,
        events: [
          {
            id: '7c1d2e3f-4a5b-5c6d-8e7f-0a1b2c3d4e5f',
            event_type: 'sent',
            event_timestamp: '2026-11-26T09:30:01.204Z',
            user_agent: null,
            ip_address: null,
            url_clicked: null,
            bounce_type: null,
            bounce_subtype: null,
            complaint_feedback_type: null,
            created_at: '2026-11-26T09:30:01.204Z',
          },
        ],
      },
    }),
    ...errors('project', {
      400: 'The id is not a uuid, or include names something other than events, html, text and headers',
      404: 'No record with this id in the project',
    }),
  },
  access: readActivityAccess,
  handle: async (request) => {
    const deps = services();
    // A batch's mail answers before the background fan-out has written its record, and its HTML before it is sent (issue 16).
    const data = await readRecord(deps.db, request.caller.project.id, request.params.id ?? '', toInclude(request.query.include), {
      notYetWritten: (projectId, id) => derivedBatchActivity(deps.db, deps.blobs, projectId, id),
      queuedHtml: (projectId, activity) => queuedBatchMailHtml(deps, projectId, activity.id),
      subjects: (activities) => withBatchSubjects(deps.db, activities),
    });
    return { status: 200, body: { success: true, data } };
  },
});
