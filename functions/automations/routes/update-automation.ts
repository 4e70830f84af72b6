import { automationAnswerSchema, automationConflictsSchema, automationNotFoundSchema } from '../../../shared/marketing/automations/automation-answers';
import { automationBodySchema, toAutomationRequest } from '../../../shared/marketing/automations/automation-request';
import { updateAutomation as update } from '../../../shared/marketing/automations/manage-automations';
import { services } from '../../../composition/services';
import { errors, json } from '../../../shared/platform/http/answers';
import { defineRoute } from '../../../shared/platform/http/route';
import { automationInvalid, automationNotFound, editedAutomation, welcomeSeriesBody } from './automation-examples';

/** `PUT /v1/automations/{id}`: a full replace of the name and the definition. */
export const updateAutomation = defineRoute({
  method: 'PUT',
  path: '/v1/automations/{id}',
  auth: 'project',
  summary: 'Replace an automation\'s name and definition (a draft in place; otherwise a new version)',
  description:
    'A draft\'s version is replaced in place. An automation that was ever active gets the next version, which new runs start on; runs in flight finish on theirs. An active automation\'s edit must pass the activation checks first (409 `AUTOMATION_INVALID` naming the step, nothing written).',
  body: automationBodySchema,
  bodyExample: welcomeSeriesBody,
  answers: {
    200: json(automationAnswerSchema, 'Saved', { success: true, data: editedAutomation }),
    ...errors('project', { 400: 'Invalid body: the first problem, naming its field (`steps[2].duration must be ...`)' }),
    404: json(automationNotFoundSchema, 'No automation of the project has this id (NOT_FOUND)', automationNotFound),
    409: json(
      automationConflictsSchema,
      'An active automation\'s new definition fails a check (AUTOMATION_INVALID, naming the step), the automation is archived (INVALID_STATE), or it changed under the request (CONFLICT: retry)',
      automationInvalid,
    ),
  },
  // Writes the version and the automation; an active one's template uses and trigger entry.
  access: { table: 'readWrite' },
  handle: async (request) => ({ status: 200, body: await update(services(), request.caller, request.params.id, toAutomationRequest(request.body)) }),
});
