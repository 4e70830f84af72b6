import { addLeadToSegments } from '../../../shared/audience/leads/lead-service';
import { leadSegmentsAddedAnswerSchema } from '../../../shared/audience/leads/lead-answers';
import { membershipBodySchema, toSegmentIds } from '../../../shared/audience/leads/lead-input';
import { services } from '../../../composition/services';
import { errors, json } from '../../../shared/platform/http/answers';
import { defineRoute } from '../../../shared/platform/http/route';
import { writeLeadsAndSignal } from './lead-access';
import { EXAMPLE_SEGMENT_ID } from './lead-examples';

/** `POST /v1/leads/{id}/segments` (4.9): adds the lead to static segments, all or none. */
export const addLeadToSegmentsRoute = defineRoute({
  method: 'POST',
  path: '/v1/leads/{id}/segments',
  auth: 'project',
  summary: 'Add a lead to segments',
  body: membershipBodySchema,
  bodyExample: { segment_ids: [EXAMPLE_SEGMENT_ID] },
  answers: {
    200: json(leadSegmentsAddedAnswerSchema, 'The segments the lead newly joined', { success: true, added: [EXAMPLE_SEGMENT_ID] }),
    ...errors('project', {
      400: 'Invalid body (the first problem, part 7), or the id is not a uuid',
      404: 'No such lead, or a segment is missing or not static (`Segment not found: <ids>`): nothing is added',
    }),
  },
  access: writeLeadsAndSignal,
  handle: async (request) => {
    const added = await addLeadToSegments(services(), request.caller.project.id, request.params.id, toSegmentIds(request.body));
    return { status: 200, body: { success: true, added } };
  },
});
