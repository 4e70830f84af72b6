import { services } from '../../../composition/services';
import { errors, json } from '../../../shared/platform/http/answers';
import { defineRoute } from '../../../shared/platform/http/route';
import { leadImportCreatedSchema, leadImportExample } from '../../../shared/audience/imports/import-answers';
import { importCreateBodySchema, toImportCreate } from '../../../shared/audience/imports/import-request';
import { createImport as create } from '../../../shared/audience/imports/import-service';

/** `POST /v1/leads/imports`: an import of a small file sent inline (queued at once), or of one to upload (the answer carries the URL). */
export const createImport = defineRoute({
  method: 'POST',
  path: '/v1/leads/imports',
  auth: 'project',
  summary: 'Start a lead import (upload URL or inline content)',
  description:
    '`format` is `csv` or `jsonl`. With `content` (the file\'s text, at most 4 MB) the import is queued at once. Without, the answer\'s `upload.url` takes the file (HTTP PUT, valid for an hour); `POST /v1/leads/imports/{id}/start` then queues it.',
  body: importCreateBodySchema,
  bodyExample: { format: 'csv', content: 'email,first_name\nada@example.com,Ada\n' },
  answers: {
    201: json(leadImportCreatedSchema, 'Created: queued (inline content), or awaiting its file at `upload.url`', {
      success: true,
      import: { ...leadImportExample, status: 'awaiting_upload', progress: { bytes_read: 0, total_bytes: null, percent: 0 } },
      upload: {
        method: 'PUT',
        url: 'https://payloads-bucket.s3.eu-west-1.amazonaws.com/lead-imports/0b7e4f2a-5c1d-4e8b-9a3f-6d2c1b0e9f87/7e1d3c5b-9a2f-4b8e-a6c4-2d0f8e6b4a13?X-Amz-Expires=3600',
        expires_at: '2026-11-26T10:30:00.000Z',
      },
    }),
    ...errors('project', { 400: 'Invalid body: `format is required`, `format must be one of: csv, jsonl`, `content must not be empty`, content over 4 MB...' }),
  },
  // Stores the inline file (or presigns the upload's PUT) and queues its first run.
  access: { table: 'readWrite', enqueue: ['imports'], payloads: 'put' },
  handle: async (request) => ({ status: 201, body: await create(services(), request.caller.project.id, toImportCreate(request.body)) }),
});
