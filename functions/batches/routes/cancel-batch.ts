import { batchCancelledSchema } from '../../../shared/mail-pipeline/batches/batch-answers';
import { cancelBatch as cancelScheduledBatch } from '../../../shared/mail-pipeline/batches/manage-batch';
import { services } from '../../../composition/services';
import { errors, json } from '../../../shared/platform/http/answers';
import { defineRoute } from '../../../shared/platform/http/route';

/** `DELETE /v1/send-batch/{batchId}` (4.4): cancels a scheduled batch and marks its activity records `cancelled`. */
export const cancelBatch = defineRoute({
  method: 'DELETE',
  path: '/v1/send-batch/{batchId}',
  auth: 'project',
  summary: 'Cancel a batch not yet gone out',
  answers: {
    200: json(batchCancelledSchema, 'Cancelled', { success: true, batch_id: '5a1f3c2e-7b4d-4e8f-9a6b-2c3d4e5f6a7b', cancelled: 1200, activities_updated: 1200 }),
    ...errors('project', {
      400: 'batchId is not a uuid',
      404: 'No batch with this id in the project',
      409: 'The batch has gone out or was already cancelled (NOT_PENDING, with its `status`)',
    }),
  },
  // Its chunks are queued to the fan-out, which turns records not yet written `cancelled`.
  access: { table: 'readWrite', enqueue: ['fanout'], settings: ['ACTIVITY_RETENTION_DAYS'] },
  handle: async (request) => ({ status: 200, body: await cancelScheduledBatch(services(), request.caller, request.params.batchId) }),
});
