import { services } from '../../../composition/services';
import { json } from '../../../shared/platform/http/answers';
import { defineRoute } from '../../../shared/platform/http/route';
import { partnerProjectListSchema } from '../../../shared/tenancy/partner/partner-answers';
import { listPartnerProjects } from '../../../shared/tenancy/partner/partner-projects';
import { partnerReadAccess } from './partner-access';

/** `GET /v1/partner/projects` (4.13): the organization's client projects. */
export const listProjects = defineRoute({
  method: 'GET',
  path: '/v1/partner/projects',
  auth: 'partner',
  summary: 'The organization\'s projects',
  answers: {
    200: json(partnerProjectListSchema, 'The client projects, oldest first', {
      projects: [
        { id: '0b7e4f2a-5c1d-4e8b-9a3f-6d2c1b0e9f87', name: 'Acme', slug: 'acme', created_at: '2026-11-20T10:15:00.000Z', disabled_at: null },
        { id: '6d2c1b0e-9f87-4e8b-9a3f-0b7e4f2a5c1d', name: 'Globex', slug: 'globex', created_at: '2026-11-22T16:40:00.000Z', disabled_at: '2026-11-25T08:00:00.000Z' },
      ],
    }),
  },
  access: partnerReadAccess,
  handle: async (request) => ({ status: 200, body: await listPartnerProjects(services(), request.caller) }),
});
