import { services } from '../../shared/container';
import { apiHandler } from '../../shared/http/api-handler';
import { projectCaller } from '../../shared/http/api-types';
import { boundedPaginationBlock, listCursor, parsePageRequest } from '../../shared/http/pagination';
import { createTemplate, pageTemplates, presentTemplate, removeTemplate, requireTemplate, updateTemplate } from '../../shared/templates/template-service';

/** Endpoint group `templates`: the project's templates (part 4.7). */
export const handler = apiHandler('templates', {
  'POST /v1/templates': async (request) => {
    const { db, clock } = services();
    const template = await createTemplate(db, clock, projectCaller(request).project.id, request.body);
    return { status: 201, body: { success: true, data: presentTemplate(template) } };
  },

  'GET /v1/templates': async (request) => {
    const page = parsePageRequest(request.query);
    const cursor = listCursor(request.query, page);
    const { templates, ...listed } = await pageTemplates(services().db, projectCaller(request).project.id, { ...page, search: request.query.search, cursor });
    return {
      status: 200,
      body: { success: true, data: templates.map((t) => presentTemplate(t, { withHtml: false })), pagination: boundedPaginationBlock(page, listed) },
    };
  },

  'GET /v1/templates/{id}': async (request) => {
    const template = await requireTemplate(services().db, projectCaller(request).project.id, request.params.id);
    return { status: 200, body: { success: true, data: presentTemplate(template) } };
  },

  'PUT /v1/templates/{id}': async (request) => {
    const { db, clock } = services();
    const template = await updateTemplate(db, clock, projectCaller(request).project.id, request.params.id, request.body);
    return { status: 200, body: { success: true, data: presentTemplate(template) } };
  },

  'DELETE /v1/templates/{id}': async (request) => {
    const force = request.query.force === 'true';
    const template = await removeTemplate(services().db, projectCaller(request).project.id, request.params.id, force);
    return { status: 200, body: { success: true, data: { id: template.id, internal_id: template.internal_id, deleted: true } } };
  },
});
