import { createImport, importErrorReport, showImport, startImport } from '../../shared/imports/import-service';
import { services } from '../../shared/container';
import { apiHandler } from '../../shared/http/api-handler';
import { projectCaller } from '../../shared/http/api-types';

/** Endpoint group `lead-imports`: CSV and JSON-lines imports of leads, read in the background. */
export const handler = apiHandler('lead-imports', {
  'POST /v1/leads/imports': async (request) => ({ status: 201, body: await createImport(services(), projectCaller(request).project.id, request.body) }),

  'POST /v1/leads/imports/{id}/start': async (request) => ({ status: 202, body: await startImport(services(), projectCaller(request).project.id, request.params.id) }),

  'GET /v1/leads/imports/{id}': async (request) => ({ status: 200, body: await showImport(services(), projectCaller(request).project.id, request.params.id) }),

  'GET /v1/leads/imports/{id}/errors': async (request) => {
    const id = request.params.id;
    const csv = await importErrorReport(services(), projectCaller(request).project.id, id);
    return { status: 200, body: csv, headers: { 'content-type': 'text/csv; charset=utf-8', 'content-disposition': `attachment; filename="import-${id}-errors.csv"` } };
  },
});
