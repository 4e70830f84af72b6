import { services } from '../../shared/container';
import { apiHandler } from '../../shared/http/api-handler';
import { projectCaller } from '../../shared/http/api-types';
import { cancelScheduledSend, readScheduledSend, rescheduleScheduledSend } from '../../shared/scheduling/scheduled-send-service';

/** Endpoint group `scheduled-sends`: read, reschedule and cancel a scheduled send (part 4.6). */
export const handler = apiHandler('scheduled-sends', {
  'GET /v1/scheduled-sends/{id}': async (request) => {
    const data = await readScheduledSend(services(), projectCaller(request), request.params.id);
    return { status: 200, body: { success: true, data } };
  },

  'PATCH /v1/scheduled-sends/{id}': async (request) => {
    const data = await rescheduleScheduledSend(services(), projectCaller(request), request.params.id, request.body);
    return { status: 200, body: { success: true, data } };
  },

  'DELETE /v1/scheduled-sends/{id}': async (request) => {
    const answer = await cancelScheduledSend(services(), projectCaller(request), request.params.id);
    return { status: 200, body: { success: true, ...answer } };
  },
});
