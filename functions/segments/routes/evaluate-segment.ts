import { services } from '../../../composition/services';
import { errors, json } from '../../../shared/platform/http/answers';
import { defineRoute } from '../../../shared/platform/http/route';
import { segmentAnswerSchema, segmentExamples } from '../../../shared/audience/leads/segment-answers';
import { reevaluateSegment } from '../../../shared/audience/leads/segment-service';

/** `POST /v1/segments/{id}/evaluate`: starts a new run of a dynamic segment (a newer run supersedes a running one). */
export const evaluateSegment = defineRoute({
  method: 'POST',
  path: '/v1/segments/{id}/evaluate',
  auth: 'project',
  summary: 'Evaluate a dynamic segment now',
  description: 'Starts a new evaluation run in the background; a run still going is superseded. The members of the last finished run stay readable until the new one finishes.',
  answers: {
    202: json(segmentAnswerSchema, 'The run started: the segment with its evaluation `running`', {
      success: true,
      segment: { ...segmentExamples.dynamic, evaluation: { status: 'running', generation: 2, started_at: '2026-11-26T10:00:00.000Z', evaluated_at: '2026-11-26T09:31:12.000Z', member_count: 42 } },
    }),
    ...errors('project', {
      400: 'The id is not a UUID (`Invalid segment id: ...`), or the segment is static (`Only dynamic segments are evaluated`)',
      404: 'No segment with this id in the project',
    }),
  },
  // One evaluation job per shard on the audience queue.
  access: { table: 'readWrite', enqueue: ['audience'] },
  handle: async (request) => ({ status: 202, body: { success: true, segment: await reevaluateSegment(services(), request.caller.project.id, request.params.id) } }),
});
