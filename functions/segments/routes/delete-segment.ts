import { services } from '../../../composition/services';
import { errors, json } from '../../../shared/platform/http/answers';
import { defineRoute } from '../../../shared/platform/http/route';
import { segmentDeletedAnswerSchema } from '../../../shared/audience/leads/segment-answers';
import { deleteSegment as remove } from '../../../shared/audience/leads/segment-service';

/** `DELETE /v1/segments/{id}`: the segment goes at once; its memberships are removed in the background. */
export const deleteSegment = defineRoute({
  method: 'DELETE',
  path: '/v1/segments/{id}',
  auth: 'project',
  summary: 'Delete a segment',
  description: 'The segment goes at once (leads stop showing it); its memberships are removed in the background.',
  answers: {
    200: json(segmentDeletedAnswerSchema, 'Deleted', { success: true }),
    ...errors('project', {
      400: 'The id is not a UUID (`Invalid segment id: ...`)',
      404: 'No segment with this id in the project',
      409: 'Segments of the project are being created or deleted concurrently; try again (CONFLICT)',
    }),
  },
  // The cleanup of its memberships: one job on the audience queue.
  access: { table: 'readWrite', enqueue: ['audience'] },
  handle: async (request) => {
    await remove(services(), request.caller.project.id, request.params.id);
    return { status: 200, body: { success: true } };
  },
});
