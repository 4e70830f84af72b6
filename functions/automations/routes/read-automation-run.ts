import { runAnswerSchema, runExample, runTimelineExample } from '../../../shared/marketing/automations/run-answers';
import { readRun } from '../../../shared/marketing/automations/run-service';
import { services } from '../../../composition/services';
import { errors, json } from '../../../shared/platform/http/answers';
import { defineRoute } from '../../../shared/platform/http/route';

/** `GET /v1/automation-runs/{id}`: one run and its timeline. */
export const readAutomationRun = defineRoute({
  method: 'GET',
  path: '/v1/automation-runs/{id}',
  auth: 'project',
  summary: 'A run of an automation and its timeline',
  answers: {
    200: json(runAnswerSchema, 'The run, its timeline oldest step first', { success: true, data: { ...runExample, timeline: runTimelineExample } }),
    ...errors('project', { 404: 'No run of the project has this id (NOT_FOUND)' }),
  },
  // Reads the run and its timeline.
  access: { table: 'read' },
  handle: async (request) => ({ status: 200, body: await readRun(services(), request.caller, request.params.id) }),
});
