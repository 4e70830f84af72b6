import { services } from '../../../composition/services';
import { errors, json } from '../../../shared/platform/http/answers';
import { defineRoute } from '../../../shared/platform/http/route';
import { leadImportAnswerSchema, leadImportExample } from '../../../shared/audience/imports/import-answers';
import { showImport } from '../../../shared/audience/imports/import-service';

/** `GET /v1/leads/imports/{id}`: an import's status, progress and counts. */
export const getImport = defineRoute({
  method: 'GET',
  path: '/v1/leads/imports/{id}',
  auth: 'project',
  summary: 'An import\'s progress',
  answers: {
    200: json(leadImportAnswerSchema, 'The import', {
      success: true,
      import: {
        ...leadImportExample,
        status: 'done',
        progress: { bytes_read: 38, total_bytes: 38, percent: 100 },
        rows_processed: 1,
        leads_created: 1,
        started_at: '2026-11-26T09:30:01.000Z',
        finished_at: '2026-11-26T09:30:02.000Z',
      },
    }),
    ...errors('project', { 400: 'The id is not a UUID (`Invalid import id: ...`)', 404: 'No import with this id in the project' }),
  },
  access: { table: 'read' },
  handle: async (request) => ({ status: 200, body: await showImport(services(), request.caller.project.id, request.params.id) }),
});
