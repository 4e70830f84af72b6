import { statsAnswerSchema, statsExample } from '../../../shared/marketing/automations/run-answers';
import { automationStats as stats } from '../../../shared/marketing/automations/run-service';
import { services } from '../../../composition/services';
import { errors, json } from '../../../shared/platform/http/answers';
import { defineRoute } from '../../../shared/platform/http/route';

/** `GET /v1/automations/{id}/stats`: runs by state and figures per step, from counters. */
export const automationStats = defineRoute({
  method: 'GET',
  path: '/v1/automations/{id}/stats',
  auth: 'project',
  summary: 'An automation\'s statistics: runs by state, and per step entered, waiting, completed, exited, failed and mails sent, delivered, opened, clicked',
  answers: {
    200: json(statsAnswerSchema, 'The automation\'s figures', statsExample),
    ...errors('project', { 404: 'No automation of the project has this id (NOT_FOUND)' }),
  },
  // Reads the automation, its current version and its counter shards.
  access: { table: 'read' },
  handle: async (request) => ({ status: 200, body: await stats(services(), request.caller, request.params.id) }),
});
