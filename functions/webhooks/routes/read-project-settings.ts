import { services } from '../../../composition/services';
import { errors, json } from '../../../shared/platform/http/answers';
import { defineRoute } from '../../../shared/platform/http/route';
import { projectSettingsAnswerSchema, projectSettingsExample } from '../../../shared/tenancy/project-settings/project-answers';
import { PROJECT_GONE, readProjectSettings } from '../../../shared/tenancy/project-settings/project-settings';
import { projectSettingsReadAccess } from './webhooks-access';

/** `GET /v1/project`: the calling project's own settings (live and test keys alike). */
export const readProjectSettingsRoute = defineRoute({
  method: 'GET',
  path: '/v1/project',
  auth: 'project',
  summary: 'The project\'s settings',
  description:
    'The calling project: name, slug, time zone, country, webhook URLs per slot and per environment, `disabled_at`, `created_at`. ' +
    'Never its keys, key hashes or webhook secrets. Live and test keys may read it; read strongly consistent, so a change just answered shows.',
  answers: {
    200: json(projectSettingsAnswerSchema, 'The project as it is now', projectSettingsExample),
    ...errors('project', { 404: `The project no longer exists (\`${PROJECT_GONE}\`)` }),
  },
  access: projectSettingsReadAccess,
  handle: async (request) => ({ status: 200, body: await readProjectSettings(services().db, request.caller) }),
});
