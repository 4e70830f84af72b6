import { automationAnswerSchema, automationNotFoundSchema, automationStateConflictsSchema } from '../../../shared/marketing/automations/automation-answers';
import { pauseAutomation as pause } from '../../../shared/marketing/automations/manage-automations';
import { services } from '../../../composition/services';
import { json } from '../../../shared/platform/http/answers';
import { defineRoute } from '../../../shared/platform/http/route';
import { automationNotFound, pausedAutomation } from './automation-examples';

/** `POST /v1/automations/{id}/pause`: from active; new entries stop, runs that wake are held. */
export const pauseAutomation = defineRoute({
  method: 'POST',
  path: '/v1/automations/{id}/pause',
  auth: 'project',
  summary: 'Pause an active automation',
  description: 'New entries stop (enrolment answers 409). Runs that wake while it is paused are held at the step they reached, nothing sent; activating it again releases them.',
  answers: {
    200: json(automationAnswerSchema, 'Paused', { success: true, data: pausedAutomation }),
    404: json(automationNotFoundSchema, 'No automation of the project has this id (NOT_FOUND)', automationNotFound),
    409: json(automationStateConflictsSchema, 'Not active: a draft, already paused or archived (INVALID_STATE), or it changed under the request (CONFLICT: retry)', {
      error: 'A draft automation cannot be paused; only an active one',
      code: 'INVALID_STATE',
    }),
  },
  // Moves the automation and removes its trigger entry.
  access: { table: 'readWrite' },
  handle: async (request) => ({ status: 200, body: await pause(services(), request.caller, request.params.id) }),
});
