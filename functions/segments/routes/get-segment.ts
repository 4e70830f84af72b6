import { services } from '../../../composition/services';
import { errors, json } from '../../../shared/platform/http/answers';
import { defineRoute } from '../../../shared/platform/http/route';
import { segmentAnswerSchema, segmentExamples } from '../../../shared/audience/leads/segment-answers';
import { showSegment } from '../../../shared/audience/leads/segment-service';

/** `GET /v1/segments/{id}`: one segment with its member count (a dynamic one with its filter and evaluation). */
export const getSegment = defineRoute({
  method: 'GET',
  path: '/v1/segments/{id}',
  auth: 'project',
  summary: 'One segment',
  answers: {
    200: json(segmentAnswerSchema, 'The segment', { success: true, segment: segmentExamples.static }),
    ...errors('project', { 400: 'The id is not a UUID (`Invalid segment id: ...`)', 404: 'No segment with this id in the project' }),
  },
  access: { table: 'read' },
  handle: async (request) => ({ status: 200, body: { success: true, segment: await showSegment(services(), request.caller.project.id, request.params.id) } }),
});
