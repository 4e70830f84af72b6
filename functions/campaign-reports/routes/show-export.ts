import { campaignExportAnswerSchema, reportNotFoundSchema } from '../../../shared/marketing/campaign-reports/campaign-report-answers';
import { showExport as show } from '../../../shared/marketing/campaign-reports/campaign-report';
import { services } from '../../../composition/services';
import { json } from '../../../shared/platform/http/answers';
import { defineRoute } from '../../../shared/platform/http/route';
import { completedExport, reportNotFound } from './examples';

/** `GET /v1/campaigns/{id}/exports/{exportId}`: the export's progress, and its download link once completed. */
export const showExport = defineRoute({
  method: 'GET',
  path: '/v1/campaigns/{id}/exports/{exportId}',
  auth: 'project',
  summary: 'An export\'s progress and, once done, its download link',
  answers: {
    200: json(campaignExportAnswerSchema, 'The export; `download_url` (valid an hour) once `completed`', { success: true, export: completedExport }),
    404: json(reportNotFoundSchema, 'No campaign of the project has this id, or it has no export of this id (NOT_FOUND)', reportNotFound),
  },
  // Reads the export's record; presigns the CSV's download (a presigned GET needs the function's own read grant).
  access: { table: 'read', payloads: 'read' },
  handle: async (request) => ({ status: 200, body: await show(services(), request.caller.project.id, request.params.id, request.params.exportId) }),
});
