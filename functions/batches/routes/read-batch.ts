import { batchSchema } from '../../../shared/mail-pipeline/batches/batch-answers';
import { readBatch as readScheduledBatch } from '../../../shared/mail-pipeline/batches/manage-batch';
import { services } from '../../../composition/services';
import { errors, json } from '../../../shared/platform/http/answers';
import { defineRoute } from '../../../shared/platform/http/route';

/** `GET /v1/send-batch/{batchId}` (4.4): a batch that has not gone out, and its counts. */
export const readBatch = defineRoute({
  method: 'GET',
  path: '/v1/send-batch/{batchId}',
  auth: 'project',
  summary: 'A scheduled batch and its counts',
  answers: {
    200: json(batchSchema, 'The batch', {
      success: true,
      batch_id: '5a1f3c2e-7b4d-4e8f-9a6b-2c3d4e5f6a7b',
      status: 'scheduled',
      scheduled_for: '2026-11-27T09:00:00.000Z',
      timezone: 'Europe/London',
      created_at: '2026-11-26T18:12:44.512Z',
      recipients: 1200,
      duplicates_removed: 3,
      counts: { queued: 1200, cancelled: 0 },
    }),
    ...errors('project', {
      400: 'batchId is not a uuid',
      404: 'No batch with this id in the project',
      409: 'The batch has gone out (NOT_PENDING, with its `status`): only a batch not yet sent is shown here',
    }),
  },
  access: { table: 'read' },
  handle: async (request) => ({ status: 200, body: await readScheduledBatch(services(), request.caller, request.params.batchId) }),
});
