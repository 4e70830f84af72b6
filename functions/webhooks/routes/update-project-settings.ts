import { services } from '../../../composition/services';
import { errors, json } from '../../../shared/platform/http/answers';
import { defineRoute } from '../../../shared/platform/http/route';
import { orEmptyBody, projectPatchBodySchema, toProjectPatch } from '../../../shared/tenancy/partner/project-request';
import { projectSettingsAnswerSchema, projectSettingsExample } from '../../../shared/tenancy/project-settings/project-answers';
import { changeProjectSettings, PROJECT_GONE, TEST_KEY_CANNOT_CHANGE_SETTINGS } from '../../../shared/tenancy/project-settings/project-settings';
import { projectSettingsWriteAccess } from './webhooks-access';

/** `PATCH /v1/project`: changes the calling project's own settings, with the partner PATCH's fields and rules; live key only. */
export const updateProjectSettingsRoute = defineRoute({
  method: 'PATCH',
  path: '/v1/project',
  auth: 'project',
  summary: 'Change the project\'s settings',
  description:
    'Only the sent fields change; null clears one (an empty URL too). The fields and rules of `PATCH /v1/partner/projects/{projectId}`: ' +
    '`name`, `timezone` (IANA), `country`, `webhook_url`, `webhook_url_dev`, `inbound_webhook_url`, `inbound_webhook_url_dev`, ' +
    '`inbound_webhook_environments` (replaced whole; null empties it). URLs must be http or https; the service never connects to a private ' +
    'address whatever the URL says (the check runs on each delivery\'s connection). The body is checked first, then the key: ' +
    'a test key is refused with 403, since these settings are live configuration.',
  body: orEmptyBody(projectPatchBodySchema),
  bodyExample: { timezone: 'Europe/Paris', webhook_url: 'https://hooks.acme.example/mail', inbound_webhook_environments: { staging: 'https://staging.acme.example/hooks/mail' } },
  answers: {
    200: json(projectSettingsAnswerSchema, 'The project as it now is', projectSettingsExample),
    ...errors('project', {
      400: 'Invalid body: an empty `name`, an unknown time zone, a country that is not two letters, a URL that is not http(s), a bad environment name, or no recognised field',
      403: `A test key: \`${TEST_KEY_CANNOT_CHANGE_SETTINGS}\``,
      404: `The project no longer exists (\`${PROJECT_GONE}\`)`,
    }),
  },
  access: projectSettingsWriteAccess,
  handle: async (request) => ({ status: 200, body: await changeProjectSettings(services().db, request.caller, toProjectPatch(request.body)) }),
});
