import { automationAnswerSchema, automationConflictsSchema, automationNotFoundSchema } from '../../../shared/marketing/automations/automation-answers';
import { activateAutomation as activate } from '../../../shared/marketing/automations/manage-automations';
import { services } from '../../../composition/services';
import { errors, json } from '../../../shared/platform/http/answers';
import { defineRoute } from '../../../shared/platform/http/route';
import { activeAutomation, automationInvalid, automationNotFound } from './automation-examples';

/** `POST /v1/automations/{id}/activate`: from a draft or a paused automation, after the checks. */
export const activateAutomation = defineRoute({
  method: 'POST',
  path: '/v1/automations/{id}/activate',
  auth: 'project',
  summary: 'Activate a draft or resume a paused automation (409 `AUTOMATION_INVALID` naming the step)',
  description:
    'The checks: no duplicate step id, no reference to a missing step, every step reachable from the first, no cycle without a wait, opened/clicked conditions naming an earlier send_email step, and in the project: each template, sender profile (able to send), webhook and segment the definition names. A resumed automation\'s held runs go on from the step they reached.',
  answers: {
    200: json(automationAnswerSchema, 'Active: new entries start runs', { success: true, data: activeAutomation }),
    ...errors('project', {
      403: 'The project is disabled (PROJECT_DISABLED)',
      500: 'A fault of the service, or the release of the held runs could not be queued (`Failed to resume automation`: it is paused again)',
    }),
    404: json(automationNotFoundSchema, 'No automation of the project has this id (NOT_FOUND)', automationNotFound),
    409: json(automationConflictsSchema, 'A check failed (AUTOMATION_INVALID, naming the step), the automation is active or archived (INVALID_STATE), or it changed under the request (CONFLICT: retry)', automationInvalid),
  },
  // Reads what the definition names (templates, senders, domains, segments), records template uses, moves the automation, writes its trigger entry, queues the release of held runs.
  access: { table: 'readWrite', enqueue: ['automations'] },
  handle: async (request) => ({ status: 200, body: await activate(services(), request.caller, request.params.id) }),
});
