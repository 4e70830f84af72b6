import { services } from '../../../composition/services';
import { errors, json } from '../../../shared/platform/http/answers';
import { defineRoute } from '../../../shared/platform/http/route';
import { leadImportAnswerSchema, leadImportExample } from '../../../shared/audience/imports/import-answers';
import { startImport as start } from '../../../shared/audience/imports/import-service';

/** `POST /v1/leads/imports/{id}/start`: queues an uploaded file. */
export const startImport = defineRoute({
  method: 'POST',
  path: '/v1/leads/imports/{id}/start',
  auth: 'project',
  summary: 'Start an uploaded import',
  description: 'Queues the file PUT to the import\'s upload URL; the import then runs in the background.',
  answers: {
    202: json(leadImportAnswerSchema, 'Queued', { success: true, import: leadImportExample }),
    ...errors('project', {
      400: 'The id is not a UUID (`Invalid import id: ...`)',
      404: 'No import with this id in the project',
      409: 'Started already (IMPORT_STARTED), or nothing was uploaded yet (IMPORT_NOT_UPLOADED)',
    }),
  },
  // Reads the upload's size (HeadObject: s3:GetObject, and s3:ListBucket so that a missing file answers 404) and queues the run.
  access: { table: 'readWrite', enqueue: ['imports'], payloads: 'read' },
  handle: async (request) => ({ status: 202, body: await start(services(), request.caller.project.id, request.params.id) }),
});
