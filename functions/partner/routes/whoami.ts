import { services } from '../../../composition/services';
import { errors, json } from '../../../shared/platform/http/answers';
import { defineRoute } from '../../../shared/platform/http/route';
import { partnerWhoAmISchema } from '../../../shared/tenancy/partner/partner-answers';
import { whoAmI as describeCaller } from '../../../shared/tenancy/partner/partner-projects';
import { partnerReadAccess } from './partner-access';

/** `GET /v1/partner/whoami` (4.13): the organization behind the key and its project quota. */
export const whoAmI = defineRoute({
  method: 'GET',
  path: '/v1/partner/whoami',
  auth: 'partner',
  summary: 'The organization and its quota',
  answers: {
    200: json(partnerWhoAmISchema, 'The organization and the quota (`max_projects` null is unlimited; the count excludes the root project)', {
      organization: { id: '2e4f6a8c-0b1d-4e3f-9a5b-7c9d1e3f5a7b', name: 'Agency One', created_at: '2026-09-01T08:00:00.000Z', root_project_id: '8a6c4e2f-0d1b-4f3e-8a5c-7b9d1f3e5a6c' },
      partner: { key_id: 'pk_4f7a2c9e', max_projects: 25, active_projects: 7, remaining_projects: 18 },
    }),
    ...errors('partner', { 500: 'A fault of the service (INTERNAL_ERROR), or the key\'s organization no longer exists (NO_OWNER)' }),
  },
  access: partnerReadAccess,
  handle: async (request) => ({ status: 200, body: await describeCaller(services(), request.caller) }),
});
