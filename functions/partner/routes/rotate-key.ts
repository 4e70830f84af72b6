import { services } from '../../../composition/services';
import { errors, json } from '../../../shared/platform/http/answers';
import { defineRoute } from '../../../shared/platform/http/route';
import { partnerKeyRotatedSchema } from '../../../shared/tenancy/partner/partner-answers';
import { rotatePartnerKey } from '../../../shared/tenancy/partner/partner-projects';
import { invalidInput, keyRotationBodySchema, orEmptyBody } from '../../../shared/tenancy/partner/project-request';
import { ownedProject, PROJECT_NOT_FOUND } from './owned-project';
import { partnerWriteAccess } from './partner-access';

/** `POST /v1/partner/projects/{projectId}/api-key/rotate` (4.13): a new live (default) or test key; the old one stops at once. */
export const rotateKey = defineRoute({
  method: 'POST',
  path: '/v1/partner/projects/{projectId}/api-key/rotate',
  auth: 'partner',
  summary: 'Rotate the project key',
  body: orEmptyBody(keyRotationBodySchema),
  bodyExample: { mode: 'test' },
  refuse: invalidInput,
  answers: {
    200: json(partnerKeyRotatedSchema, 'The new key, shown once', {
      project_id: '0b7e4f2a-5c1d-4e8b-9a3f-6d2c1b0e9f87',
      mode: 'test',
      api_key: 'sk_test_5e4d3c2b1a0f9e8d7c6b5a4938271605',
      rotated_at: '2026-11-26T09:30:00.000Z',
    }),
    ...errors('partner', {
      400: 'Invalid body (INVALID_INPUT): `mode` is neither live nor test',
      404: PROJECT_NOT_FOUND,
      409: 'The key was rotated concurrently (KEY_ROTATION_CONFLICT)',
    }),
  },
  access: partnerWriteAccess,
  handle: async (request) => ({ status: 200, body: await rotatePartnerKey(services(), await ownedProject(request), request.body.mode ?? 'live') }),
});
