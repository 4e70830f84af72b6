import { services } from '../../../composition/services';
import { errors, json } from '../../../shared/platform/http/answers';
import { defineRoute } from '../../../shared/platform/http/route';
import { publicBaseUrl } from '../../../shared/platform/http/api-types';
import { partnerProjectCreatedSchema } from '../../../shared/tenancy/partner/partner-answers';
import { createPartnerProject } from '../../../shared/tenancy/partner/partner-projects';
import { createProjectBodySchema, invalidInput, orEmptyBody, toCreateProject } from '../../../shared/tenancy/partner/project-request';
import { onboardingAccess } from './partner-access';
import { domainPackExample, senderExample } from './partner-examples';

/** `POST /v1/partner/projects` (4.13): a client project, optionally with its domain and sender onboarded. */
export const createProject = defineRoute({
  method: 'POST',
  path: '/v1/partner/projects',
  auth: 'partner',
  summary: 'Create a project (optionally with its domain and sender)',
  description:
    'With `external_key` the call is idempotent: a retry answers 200 with the same project (`existing: true`, no keys: they are shown once). ' +
    'With `domain` and `sender` (both or neither) the domain is onboarded too; if that fails the project still exists (`partial: true`, `errors[]`).',
  body: orEmptyBody(createProjectBodySchema),
  bodyExample: { name: 'Acme', timezone: 'Europe/Paris', country: 'FR', external_key: 'acme-1', domain: 'mail.acme.example', sender: { name: 'Acme', email: 'hello@mail.acme.example' } },
  refuse: invalidInput,
  answers: {
    201: json(partnerProjectCreatedSchema, 'Created: the project and its keys (shown once), and the onboarded domain when one was given', {
      project_id: '0b7e4f2a-5c1d-4e8b-9a3f-6d2c1b0e9f87',
      slug: 'acme',
      api_key: 'sk_proj_9f8e7d6c5b4a39281706f5e4d3c2b1a0',
      test_api_key: 'sk_test_0a1b2c3d4e5f60718293a4b5c6d7e8f9',
      domain: domainPackExample,
      sender: senderExample,
      warnings: [],
      skipped: [],
      errors: [],
      partial: false,
    }),
    200: json(partnerProjectCreatedSchema, 'The existing project of this `external_key` (`existing: true`, no keys)', { project_id: '0b7e4f2a-5c1d-4e8b-9a3f-6d2c1b0e9f87', slug: 'acme', existing: true }),
    ...errors('partner', {
      400: 'Invalid body: INVALID_INPUT, or MISSING_NAME, INVALID_TIMEZONE, INVALID_COUNTRY, SENDER_REQUIRED_FOR_DOMAIN, DOMAIN_REQUIRED_FOR_SENDER, SENDER_DOMAIN_MISMATCH',
      403: 'The organization has its most active projects (MAX_PROJECTS_REACHED, with `max_projects`)',
      409: 'The project of this `external_key` is disabled; reactivate it first (PROJECT_DISABLED, with `project_id`)',
      500: 'A fault of the service (INTERNAL_ERROR), the project could not be created (CREATE_FAILED), or the key\'s organization no longer exists (NO_OWNER)',
    }),
  },
  access: onboardingAccess,
  handle: async (request) => createPartnerProject(services(), request.caller, toCreateProject(request.body), publicBaseUrl(request)),
});
