import { removeLeadFromSegment } from '../../../shared/audience/leads/lead-service';
import { leadDoneAnswerSchema } from '../../../shared/audience/leads/lead-answers';
import { services } from '../../../composition/services';
import { errors, json } from '../../../shared/platform/http/answers';
import { defineRoute } from '../../../shared/platform/http/route';
import { writeLeadsAndSignal } from './lead-access';

/** `DELETE /v1/leads/{id}/segments/{segmentId}` (4.9): ends one static membership. */
export const removeLeadFromSegmentRoute = defineRoute({
  method: 'DELETE',
  path: '/v1/leads/{id}/segments/{segmentId}',
  auth: 'project',
  summary: 'Remove a lead from a segment',
  answers: {
    200: json(leadDoneAnswerSchema, 'Removed', { success: true }),
    ...errors('project', { 400: 'The segment id or the lead id is not a uuid', 404: 'No such lead, or the lead is not a member of the segment' }),
  },
  access: writeLeadsAndSignal,
  handle: async (request) => {
    await removeLeadFromSegment(services(), request.caller.project.id, request.params.id, request.params.segmentId);
    return { status: 200, body: { success: true } };
  },
});
