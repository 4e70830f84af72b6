import { automationAnswerSchema, automationNotFoundSchema } from '../../../shared/marketing/automations/automation-answers';
import { readAutomation as read } from '../../../shared/marketing/automations/manage-automations';
import { services } from '../../../composition/services';
import { json } from '../../../shared/platform/http/answers';
import { defineRoute } from '../../../shared/platform/http/route';
import { activeAutomation, automationNotFound } from './automation-examples';

/** `GET /v1/automations/{id}`: the automation with its current definition. */
export const readAutomation = defineRoute({
  method: 'GET',
  path: '/v1/automations/{id}',
  auth: 'project',
  summary: 'An automation with its current definition',
  answers: {
    200: json(automationAnswerSchema, 'The automation and its current version\'s definition', { success: true, data: activeAutomation }),
    404: json(automationNotFoundSchema, 'No automation of the project has this id (NOT_FOUND)', automationNotFound),
  },
  // Reads the automation and its current version.
  access: { table: 'read' },
  handle: async (request) => ({ status: 200, body: await read(services(), request.caller, request.params.id) }),
});
