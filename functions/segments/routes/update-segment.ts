import { services } from '../../../composition/services';
import { errors, json } from '../../../shared/platform/http/answers';
import { defineRoute } from '../../../shared/platform/http/route';
import { segmentAnswerSchema, segmentExamples } from '../../../shared/audience/leads/segment-answers';
import { segmentUpdateBodySchema, toSegmentUpdate } from '../../../shared/audience/leads/segment-request';
import { updateSegment as update } from '../../../shared/audience/leads/segment-service';

/** `PATCH /v1/segments/{id}`: renames a segment; its type and filter are fixed at creation. */
export const updateSegment = defineRoute({
  method: 'PATCH',
  path: '/v1/segments/{id}',
  auth: 'project',
  summary: 'Rename a segment',
  description: 'Changes `name` and `description` (null clears it). A segment\'s type and filter are fixed at creation: a body with `filter` is refused.',
  body: segmentUpdateBodySchema,
  bodyExample: { name: 'Gold', description: 'Spent over 1,000 this year' },
  answers: {
    200: json(segmentAnswerSchema, 'The segment as renamed', { success: true, segment: { ...segmentExamples.static, name: 'Gold', description: 'Spent over 1,000 this year', updated_at: '2026-11-26T09:30:00.000Z' } }),
    ...errors('project', {
      400: 'Invalid body (`At least one of name, description is required`, `filter cannot be changed; create a new segment`...), or the id is not a UUID',
      404: 'No segment with this id in the project',
    }),
  },
  access: { table: 'readWrite' },
  handle: async (request) => ({ status: 200, body: { success: true, segment: await update(services(), request.caller.project.id, request.params.id, toSegmentUpdate(request.body)) } }),
});
