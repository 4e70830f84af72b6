import { services } from '../../../composition/services';
import { errors, json } from '../../../shared/platform/http/answers';
import { defineRoute } from '../../../shared/platform/http/route';
import { templateAnswerSchema, templateExample } from '../../../shared/mail-pipeline/templates/template-answers';
import { updateTemplateBodySchema } from '../../../shared/mail-pipeline/templates/template-request';
import { presentTemplate, updateTemplate as storeUpdate } from '../../../shared/mail-pipeline/templates/template-service';
import { templatesWriteAccess } from './templates-access';

/** `PUT /v1/templates/{id}` (4.7): the fields given change, for later sends; the version goes up. */
export const updateTemplate = defineRoute({
  method: 'PUT',
  path: '/v1/templates/{id}',
  auth: 'project',
  summary: 'Update a template',
  body: updateTemplateBodySchema,
  bodyExample: { subject: 'Welcome to the team, {{name}}' },
  answers: {
    200: json(templateAnswerSchema, 'Updated: the template with its new version', { success: true, data: { ...templateExample, version: 4 } }),
    ...errors('project', {
      400: 'No field to change, a blank name or html, a field of the wrong type, a malformed id, or HTML or subject that does not compile (TEMPLATE_INVALID)',
      404: 'No template with this id in the project',
      409: 'The template kept changing under the update (CONFLICT); retry',
      422: 'HTML or subject past the render bounds (TEMPLATE_LIMIT_EXCEEDED)',
    }),
  },
  access: templatesWriteAccess,
  handle: async (request) => {
    const { db, clock } = services();
    const template = await storeUpdate(db, clock, request.caller.project.id, request.params.id, request.body);
    return { status: 200, body: { success: true, data: presentTemplate(template) } };
  },
});
