import { campaignExportAnswerSchema, reportNotFoundSchema } from '../../../shared/marketing/campaign-reports/campaign-report-answers';
import { startExport as start } from '../../../shared/marketing/campaign-reports/campaign-report';
import { services } from '../../../composition/services';
import { json } from '../../../shared/platform/http/answers';
import { defineRoute } from '../../../shared/platform/http/route';
import { reportNotFound, runningExport } from './examples';

/** `POST /v1/campaigns/{id}/exports`: starts a CSV export of every outcome (202), or answers the one running. */
export const startExport = defineRoute({
  method: 'POST',
  path: '/v1/campaigns/{id}/exports',
  auth: 'project',
  summary: 'Start a CSV export of every outcome',
  description: 'One export of a campaign runs at a time: while one runs, a repeat answers it. Poll `GET /v1/campaigns/{id}/exports/{exportId}`.',
  answers: {
    202: json(campaignExportAnswerSchema, 'Started (or the export already running)', { success: true, export: runningExport }),
    404: json(reportNotFoundSchema, 'No campaign of the project has this id (NOT_FOUND)', reportNotFound),
  },
  // Writes the export's record and queues its run.
  access: { table: 'readWrite', enqueue: ['exports'] },
  handle: async (request) => ({ status: 202, body: await start(services(), request.caller.project.id, request.params.id) }),
});
