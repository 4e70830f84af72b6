import { acceptBatch } from '../../shared/batches/accept-batch';
import { parseBatchRequest } from '../../shared/batches/batch-request';
import { cancelBatch, readBatch, rescheduleBatch } from '../../shared/batches/manage-batch';
import { services } from '../../shared/container';
import { apiHandler } from '../../shared/http/api-handler';
import { projectCaller, publicBaseUrl } from '../../shared/http/api-types';

/** Endpoint group `batches`: batch sends (4.3) and the management of scheduled batches (4.4). */
export const handler = apiHandler('batches', {
  'POST /v1/send-batch': async (request) => {
    const input = parseBatchRequest(request.body);
    return { status: 200, body: await acceptBatch(services(), projectCaller(request), input, publicBaseUrl(request)) };
  },
  'GET /v1/send-batch/{batchId}': async (request) => ({ status: 200, body: await readBatch(services(), projectCaller(request), request.params.batchId) }),
  'PATCH /v1/send-batch/{batchId}': async (request) => ({
    status: 200,
    body: await rescheduleBatch(services(), projectCaller(request), request.params.batchId, request.body),
  }),
  'DELETE /v1/send-batch/{batchId}': async (request) => ({ status: 200, body: await cancelBatch(services(), projectCaller(request), request.params.batchId) }),
});
