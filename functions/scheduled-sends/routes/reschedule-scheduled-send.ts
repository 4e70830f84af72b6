import { services } from '../../../composition/services';
import { errors, json } from '../../../shared/platform/http/answers';
import { defineRoute } from '../../../shared/platform/http/route';
import { scheduledSendAnswerSchema, scheduledSendExample } from '../../../shared/mail-pipeline/scheduling/scheduled-send-answers';
import { invalidInput, rescheduleBodySchema } from '../../../shared/mail-pipeline/scheduling/scheduled-send-request';
import { rescheduleScheduledSend as moveSend } from '../../../shared/mail-pipeline/scheduling/scheduled-send-service';

/** `PATCH /v1/scheduled-sends/{id}` (4.6): moves a pending send to a new future time; one due within the lookahead gets its fire message at once. */
export const rescheduleScheduledSend = defineRoute({
  method: 'PATCH',
  path: '/v1/scheduled-sends/{id}',
  auth: 'project',
  summary: 'Move a pending scheduled send',
  body: rescheduleBodySchema,
  bodyExample: { scheduled_at: '2026-11-28T09:00:00+01:00' },
  refuse: invalidInput,
  answers: {
    200: json(scheduledSendAnswerSchema, 'Moved: the updated resource', {
      success: true,
      data: { ...scheduledSendExample, scheduled_for: '2026-11-28T08:00:00.000Z', updated_at: '2026-11-26T19:02:10.031Z' },
    }),
    ...errors('project', {
      400: 'INVALID_INPUT (the problem in `message`): scheduled_at missing, not ISO 8601, or not in the future',
      404: 'NOT_FOUND: no scheduled send with this id in the project (a malformed id too)',
      409: 'NOT_PENDING: the send is no longer pending (its `status` named)',
    }),
  },
  access: { table: 'readWrite', enqueue: ['scheduled'], settings: ['ACTIVITY_RETENTION_DAYS'] },
  handle: async (request) => ({ status: 200, body: { success: true, data: await moveSend(services(), request.caller, request.params.id, request.body) } }),
});
