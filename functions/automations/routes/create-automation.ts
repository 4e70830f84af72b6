import { automationAnswerSchema } from '../../../shared/marketing/automations/automation-answers';
import { automationBodySchema, toAutomationRequest } from '../../../shared/marketing/automations/automation-request';
import { createAutomation as create } from '../../../shared/marketing/automations/manage-automations';
import { services } from '../../../composition/services';
import { errors, json } from '../../../shared/platform/http/answers';
import { defineRoute } from '../../../shared/platform/http/route';
import { draftAutomation, welcomeSeriesBody } from './automation-examples';

/** `POST /v1/automations`: a draft at version 1. */
export const createAutomation = defineRoute({
  method: 'POST',
  path: '/v1/automations',
  auth: 'project',
  summary: 'Create an automation (a draft)',
  description:
    'A name, one trigger, entry rules (default: everyone the trigger names, once), exit rules (default: none) and the steps; the run starts at the first step. A draft is not checked beyond its shape: activation checks the graph and what it names (docs/automations.md).',
  body: automationBodySchema,
  bodyExample: welcomeSeriesBody,
  answers: {
    201: json(automationAnswerSchema, 'Created, in `draft`, at version 1', { success: true, data: draftAutomation }),
    ...errors('project', { 400: 'Invalid body: the first problem, naming its field (`steps[2].duration must be ...`)' }),
  },
  // Writes the automation and its first version.
  access: { table: 'readWrite' },
  handle: async (request) => ({ status: 201, body: await create(services(), request.caller, toAutomationRequest(request.body)) }),
});
