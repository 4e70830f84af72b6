import { services } from '../../../composition/services';
import { json } from '../../../shared/platform/http/answers';
import { defineRoute } from '../../../shared/platform/http/route';
import { segmentExamples, segmentListAnswerSchema } from '../../../shared/audience/leads/segment-answers';
import { listProjectSegments } from '../../../shared/audience/leads/segment-service';

/** `GET /v1/segments`: every segment of the project (at most 500), newest first, with member counts. */
export const listSegments = defineRoute({
  method: 'GET',
  path: '/v1/segments',
  auth: 'project',
  summary: 'Segments of the project',
  description: 'Every segment of the project (a project has at most 500), newest first, each with its member count. Not paged.',
  answers: {
    200: json(segmentListAnswerSchema, 'Every segment, newest first', { success: true, data: [segmentExamples.dynamic, segmentExamples.static] }),
  },
  access: { table: 'read' },
  handle: async (request) => ({ status: 200, body: { success: true, data: await listProjectSegments(services(), request.caller.project.id) } }),
});
