import { groupRoutes } from '../../../shared/platform/http/route';
import { createTemplate } from './create-template';
import { deleteTemplate } from './delete-template';
import { getTemplate } from './get-template';
import { listTemplates } from './list-templates';
import { updateTemplate } from './update-template';

/** Endpoint group `templates`: the project's templates (4.7). */
export const templatesRoutes = groupRoutes('templates', [createTemplate, listTemplates, getTemplate, updateTemplate, deleteTemplate]);
