import { services } from '../../../composition/services';
import { errors, json } from '../../../shared/platform/http/answers';
import { defineRoute } from '../../../shared/platform/http/route';
import { scheduledSendAnswerSchema, scheduledSendExample } from '../../../shared/mail-pipeline/scheduling/scheduled-send-answers';
import { readScheduledSend as readSend } from '../../../shared/mail-pipeline/scheduling/scheduled-send-service';

/** `GET /v1/scheduled-sends/{id}` (4.6): the resource, its status refined by its activity once it fired. */
export const readScheduledSend = defineRoute({
  method: 'GET',
  path: '/v1/scheduled-sends/{id}',
  auth: 'project',
  summary: 'A scheduled send',
  answers: {
    200: json(scheduledSendAnswerSchema, 'The scheduled send', { success: true, data: scheduledSendExample }),
    ...errors('project', { 404: 'NOT_FOUND: no scheduled send with this id in the project (a malformed id too)' }),
  },
  access: { table: 'read' },
  handle: async (request) => ({ status: 200, body: { success: true, data: await readSend(services(), request.caller, request.params.id) } }),
});
