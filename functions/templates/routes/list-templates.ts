import * as z from '../../../shared/platform/core/zod';
import { services } from '../../../composition/services';
import { errors, json } from '../../../shared/platform/http/answers';
import { cursorQuerySchema, listCursor, pageQuerySchema, boundedPaginationBlock, parsePageRequest } from '../../../shared/platform/http/pagination';
import { defineRoute } from '../../../shared/platform/http/route';
import { templateExample, templateListAnswerSchema } from '../../../shared/mail-pipeline/templates/template-answers';
import { pageTemplates, presentTemplate } from '../../../shared/mail-pipeline/templates/template-service';
import { templatesReadAccess } from './templates-access';

/** The list's query: the page, a part of the name to match, and the cursor of a deeper page. */
const listTemplatesQuerySchema = z.object({
  ...pageQuerySchema.shape,
  search: z.optional(z.string().check(z.meta({ description: 'Part of the name, any case' }))),
  ...cursorQuerySchema.shape,
});

/** `GET /v1/templates` (4.7): most recently updated first, HTML left out. */
export const listTemplates = defineRoute({
  method: 'GET',
  path: '/v1/templates',
  auth: 'project',
  summary: 'Templates (html empty in the list)',
  description: 'Most recently updated first. Offset pages reach 1,000 entries deep (`page * per_page`); read on with `cursor`.',
  query: listTemplatesQuerySchema,
  answers: {
    200: json(templateListAnswerSchema, 'A page of templates', {
      success: true,
      data: [{ ...templateExample, html: '' }],
      pagination: { page: 1, per_page: 50, total: 1, total_pages: 1, total_is_estimate: false, next_cursor: null },
    }),
    ...errors('project', { 400: 'A page parameter out of range, `page` with `cursor`, an offset past 1,000, or a cursor that is not this list\'s' }),
  },
  access: templatesReadAccess,
  handle: async (request) => {
    const page = parsePageRequest(request.query);
    const cursor = listCursor(request.query, page);
    const { templates, ...listed } = await pageTemplates(services().db, request.caller.project.id, { ...page, search: request.query.search, cursor });
    return {
      status: 200,
      body: { success: true, data: templates.map((t) => presentTemplate(t, { withHtml: false })), pagination: boundedPaginationBlock(page, listed) },
    };
  },
});
