import { services } from '../../../composition/services';
import { errors, json } from '../../../shared/platform/http/answers';
import { defineRoute } from '../../../shared/platform/http/route';
import { partnerStatsSchema } from '../../../shared/tenancy/partner/partner-answers';
import { projectStats } from '../../../shared/tenancy/partner/partner-projects';
import { invalidInput, statsQuerySchema } from '../../../shared/tenancy/partner/project-request';
import { ownedProject, PROJECT_NOT_FOUND } from './owned-project';
import { partnerReadAccess } from './partner-access';
import { countsExample } from './partner-examples';

/** `GET /v1/partner/projects/{projectId}/stats` (4.13): delivery, bounce, open and click figures over a period. */
export const getStats = defineRoute({
  method: 'GET',
  path: '/v1/partner/projects/{projectId}/stats',
  auth: 'partner',
  summary: 'Delivery metrics',
  description: 'Over `since` to `until` (ISO 8601; by default the 30 days up to now), counted by the UTC days the period spans, per sender domain and in total.',
  query: statsQuerySchema,
  refuse: invalidInput,
  answers: {
    200: json(partnerStatsSchema, 'The figures', {
      project_id: '0b7e4f2a-5c1d-4e8b-9a3f-6d2c1b0e9f87',
      period: { since: '2026-10-27T09:30:00.000Z', until: '2026-11-26T09:30:00.000Z' },
      totals: countsExample,
      domains: [{ sender_domain: 'mail.acme.example', ...countsExample }],
    }),
    ...errors('partner', {
      400: 'Invalid query (INVALID_INPUT): `since` or `until` is not a date, or `since` is after `until`',
      404: PROJECT_NOT_FOUND,
    }),
  },
  access: partnerReadAccess,
  handle: async (request) => ({ status: 200, body: await projectStats(services(), await ownedProject(request), request.query) }),
});
