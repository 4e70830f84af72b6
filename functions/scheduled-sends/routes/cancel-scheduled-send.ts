import { services } from '../../../composition/services';
import { errors, json } from '../../../shared/platform/http/answers';
import { defineRoute } from '../../../shared/platform/http/route';
import { scheduledSendCancelledSchema } from '../../../shared/mail-pipeline/scheduling/scheduled-send-answers';
import { cancelScheduledSend as cancelSend } from '../../../shared/mail-pipeline/scheduling/scheduled-send-service';

/** `DELETE /v1/scheduled-sends/{id}` (4.6): cancels a pending send; a fire message in flight then drops. */
export const cancelScheduledSend = defineRoute({
  method: 'DELETE',
  path: '/v1/scheduled-sends/{id}',
  auth: 'project',
  summary: 'Cancel a pending scheduled send',
  answers: {
    200: json(scheduledSendCancelledSchema, 'Cancelled', { success: true, id: '9d3e2c1b-4a5f-4e6d-8c7b-1a2b3c4d5e6f', cancelled: true }),
    ...errors('project', {
      // The route takes no body, but one sent is still parsed (and refused) as on every keyed route.
      400: 'A body sent along that is not JSON, or names a reserved key',
      404: 'NOT_FOUND: no scheduled send with this id in the project (a malformed id too)',
      409: 'NOT_PENDING: the send is no longer pending (its `status` named)',
    }),
  },
  access: { table: 'readWrite' },
  handle: async (request) => ({ status: 200, body: { success: true, ...(await cancelSend(services(), request.caller, request.params.id)) } }),
});
