import { runExample, runListAnswerSchema, runListQuerySchema } from '../../../shared/marketing/automations/run-answers';
import { listAutomationRuns as list } from '../../../shared/marketing/automations/run-service';
import { services } from '../../../composition/services';
import { errors, json } from '../../../shared/platform/http/answers';
import { defineRoute } from '../../../shared/platform/http/route';

/** `GET /v1/automations/{id}/runs`: an automation's runs, newest first. */
export const listAutomationRuns = defineRoute({
  method: 'GET',
  path: '/v1/automations/{id}/runs',
  auth: 'project',
  summary: 'An automation\'s runs, newest first',
  description: 'At most `per_page` (1 to 100, default 50) runs are read a page; `state` keeps those in that state among them, so a filtered page may hold fewer. Read on with `cursor` from `next_cursor`.',
  query: runListQuerySchema,
  answers: {
    200: json(runListAnswerSchema, 'A page of runs', { success: true, data: [runExample], next_cursor: null }),
    ...errors('project', { 400: 'An unknown `state`, `per_page` out of bounds, or a cursor not of this list', 404: 'No automation of the project has this id (NOT_FOUND)' }),
  },
  // Reads the automation, its run list index and the runs.
  access: { table: 'read' },
  handle: async (request) => ({ status: 200, body: await list(services(), request.caller, request.params.id, request.query) }),
});
