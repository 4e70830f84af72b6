import { services } from '../../../composition/services';
import { errors, json } from '../../../shared/platform/http/answers';
import { defineRoute } from '../../../shared/platform/http/route';
import { templateAnswerSchema, templateExample } from '../../../shared/mail-pipeline/templates/template-answers';
import { createTemplateBodySchema } from '../../../shared/mail-pipeline/templates/template-request';
import { createTemplate as storeTemplate, presentTemplate } from '../../../shared/mail-pipeline/templates/template-service';
import { templatesWriteAccess } from './templates-access';

/** `POST /v1/templates` (4.7): a new template; its HTML and subject must compile. */
export const createTemplate = defineRoute({
  method: 'POST',
  path: '/v1/templates',
  auth: 'project',
  summary: 'Create a template',
  body: createTemplateBodySchema,
  bodyExample: { name: 'Welcome', subject: 'Welcome, {{name}}', html: '<p>Hi {{name}}, welcome aboard.</p>', preheader: 'Your account is ready' },
  answers: {
    201: json(templateAnswerSchema, 'Created: the template, its internal id and version 1', { success: true, data: { ...templateExample, version: 1 } }),
    ...errors('project', {
      400: 'Missing `name` or `html`, a field of the wrong type, or HTML or subject that does not compile (TEMPLATE_INVALID, with `field`, `line`, `column`)',
      422: 'HTML or subject past the render bounds (TEMPLATE_LIMIT_EXCEEDED)',
    }),
  },
  access: templatesWriteAccess,
  handle: async (request) => {
    const { db, clock } = services();
    const template = await storeTemplate(db, clock, request.caller.project.id, request.body);
    return { status: 201, body: { success: true, data: presentTemplate(template) } };
  },
});
