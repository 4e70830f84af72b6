import * as z from '../../../shared/platform/core/zod';
import { services } from '../../../composition/services';
import { errors, json } from '../../../shared/platform/http/answers';
import { defineRoute } from '../../../shared/platform/http/route';
import { templateDeleteConflictSchema, templateDeletedAnswerSchema } from '../../../shared/mail-pipeline/templates/template-answers';
import { removeTemplate } from '../../../shared/mail-pipeline/templates/template-service';
import { templatesWriteAccess } from './templates-access';

/** `force=true` deletes a template in use; any other value is no force. */
const deleteTemplateQuerySchema = z.object({
  force: z.optional(z.string().check(z.meta({ description: '`true` deletes the template even while campaigns or automation steps use it' }))),
});

/** `DELETE /v1/templates/{id}` (4.7): refused while the template is in use, unless forced. */
export const deleteTemplate = defineRoute({
  method: 'DELETE',
  path: '/v1/templates/{id}',
  auth: 'project',
  summary: 'Delete a template not in use',
  query: deleteTemplateQuerySchema,
  answers: {
    200: json(templateDeletedAnswerSchema, 'Deleted', { success: true, data: { id: '6f1c2b9e-3a4d-4e5f-8a9b-0c1d2e3f4a5b', internal_id: 12, deleted: true } }),
    ...errors('project', {
      400: 'The id is neither a uuid nor a positive integer',
      404: 'No template with this id in the project',
    }),
    409: json(templateDeleteConflictSchema, 'In use by campaigns or automation steps (TEMPLATE_IN_USE, naming them; nothing deleted), or changed while being deleted (retry)', {
      error: 'Template is in use by 1 campaign(s) and 0 automation step(s); use force=true to delete it anyway',
      code: 'TEMPLATE_IN_USE',
      automation_nodes: [],
      campaigns: ['c7a1e2b3-4d5f-4a6b-9c8d-7e6f5a4b3c2d'],
    }),
  },
  access: templatesWriteAccess,
  handle: async (request) => {
    const template = await removeTemplate(services().db, request.caller.project.id, request.params.id, request.query.force === 'true');
    return { status: 200, body: { success: true, data: { id: template.id, internal_id: template.internal_id, deleted: true } } };
  },
});
