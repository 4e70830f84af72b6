import { services } from '../../../composition/services';
import { errors, json } from '../../../shared/platform/http/answers';
import { defineRoute } from '../../../shared/platform/http/route';
import { templateAnswerSchema, templateExample } from '../../../shared/mail-pipeline/templates/template-answers';
import { presentTemplate, requireTemplate } from '../../../shared/mail-pipeline/templates/template-service';
import { templatesReadAccess } from './templates-access';

/** `GET /v1/templates/{id}` (4.7): one template, its HTML included. */
export const getTemplate = defineRoute({
  method: 'GET',
  path: '/v1/templates/{id}',
  auth: 'project',
  summary: 'One template, by uuid or internal id',
  answers: {
    200: json(templateAnswerSchema, 'The template', { success: true, data: templateExample }),
    ...errors('project', {
      400: 'The id is neither a uuid nor a positive integer',
      404: 'No template with this id in the project',
    }),
  },
  access: templatesReadAccess,
  handle: async (request) => {
    const template = await requireTemplate(services().db, request.caller.project.id, request.params.id);
    return { status: 200, body: { success: true, data: presentTemplate(template) } };
  },
});
