import { batchRescheduledSchema } from '../../../shared/mail-pipeline/batches/batch-answers';
import { batchRescheduleBodySchema, refuseBatchReschedule, toBatchReschedule } from '../../../shared/mail-pipeline/batches/batch-reschedule-request';
import { rescheduleBatch as moveBatch } from '../../../shared/mail-pipeline/batches/manage-batch';
import { services } from '../../../composition/services';
import { errors, json } from '../../../shared/platform/http/answers';
import { defineRoute } from '../../../shared/platform/http/route';

/** `PATCH /v1/send-batch/{batchId}` (4.4): moves a scheduled batch; one due within the sweep's lookahead gets its fire message at once. */
export const rescheduleBatch = defineRoute({
  method: 'PATCH',
  path: '/v1/send-batch/{batchId}',
  auth: 'project',
  summary: 'Reschedule a scheduled batch',
  body: batchRescheduleBodySchema,
  bodyExample: { scheduled_at: 'tomorrow at 9am', timezone: 'Europe/London' },
  refuse: refuseBatchReschedule,
  answers: {
    200: json(batchRescheduledSchema, 'Moved', {
      success: true,
      batch_id: '5a1f3c2e-7b4d-4e8f-9a6b-2c3d4e5f6a7b',
      rescheduled: 1200,
      scheduled_for: '2026-11-27T09:00:00.000Z',
      scheduled_for_local: '2026-11-27 09:00',
      timezone: 'Europe/London',
    }),
    ...errors('project', {
      400: 'Invalid body (INVALID_INPUT): scheduled_at missing, unreadable, past, or more than 13 days ahead; an unknown timezone; or a batchId that is no uuid',
      404: 'No batch with this id in the project',
      409: 'The batch has gone out or was cancelled (NOT_PENDING, with its `status`)',
    }),
  },
  access: { table: 'readWrite', enqueue: ['scheduled'], settings: ['ACTIVITY_RETENTION_DAYS'] },
  handle: async (request) => ({ status: 200, body: await moveBatch(services(), request.caller, request.params.batchId, toBatchReschedule(request.body)) }),
});
