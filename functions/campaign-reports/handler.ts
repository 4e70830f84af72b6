import { listLeftOut, listRecipientOutcomes, showExport, startExport } from '../../shared/campaign-reports/campaign-report';
import { services } from '../../shared/container';
import { apiHandler } from '../../shared/http/api-handler';
import { projectCaller } from '../../shared/http/api-types';

/** Endpoint group `campaign-reports`: a campaign's recipients left out, outcomes per recipient, and CSV exports. */
export const handler = apiHandler('campaign-reports', {
  'GET /v1/campaigns/{id}/recipients': async (request) => ({
    status: 200,
    body: await listRecipientOutcomes(services(), projectCaller(request).project.id, request.params.id, request.query),
  }),

  'GET /v1/campaigns/{id}/left-out': async (request) => ({
    status: 200,
    body: await listLeftOut(services(), projectCaller(request).project.id, request.params.id, request.query),
  }),

  'POST /v1/campaigns/{id}/exports': async (request) => ({ status: 202, body: await startExport(services(), projectCaller(request).project.id, request.params.id) }),

  'GET /v1/campaigns/{id}/exports/{exportId}': async (request) => ({
    status: 200,
    body: await showExport(services(), projectCaller(request).project.id, request.params.id, request.params.exportId),
  }),
});
