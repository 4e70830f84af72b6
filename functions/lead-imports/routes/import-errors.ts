import { services } from '../../../composition/services';
import { errors } from '../../../shared/platform/http/answers';
import { defineRoute } from '../../../shared/platform/http/route';
import * as z from '../../../shared/platform/core/zod';
import { importErrorReport } from '../../../shared/audience/imports/import-service';

/** `GET /v1/leads/imports/{id}/errors`: the failed rows as CSV, in file order. */
export const importErrors = defineRoute({
  method: 'GET',
  path: '/v1/leads/imports/{id}/errors',
  auth: 'project',
  summary: 'Rows that failed (CSV)',
  description: 'The failed rows (the first 10,000) as CSV: `row,email,error`, in file order. A cell that starts with `=`, `+`, `-` or `@` gets a leading `\'`, so that a spreadsheet shows it as text.',
  answers: {
    200: {
      description: 'The report (Content-Disposition: attachment)',
      schema: z.string(),
      contentType: 'text/csv',
      example: 'row,email,error\r\n3,not-an-email,email is not a valid email address\r\n',
    },
    ...errors('project', { 400: 'The id is not a UUID (`Invalid import id: ...`)', 404: 'No import with this id in the project' }),
  },
  access: { table: 'read' },
  handle: async (request) => {
    const id = request.params.id;
    const csv = await importErrorReport(services(), request.caller.project.id, id);
    return { status: 200, body: csv, headers: { 'content-type': 'text/csv; charset=utf-8', 'content-disposition': `attachment; filename="import-${id}-errors.csv"` } };
  },
});
