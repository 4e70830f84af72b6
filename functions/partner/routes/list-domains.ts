import { services } from '../../../composition/services';
import { errors, json } from '../../../shared/platform/http/answers';
import { defineRoute } from '../../../shared/platform/http/route';
import { publicBaseUrl } from '../../../shared/platform/http/api-types';
import { partnerDomainListSchema } from '../../../shared/tenancy/partner/partner-answers';
import { listDomainSummaries } from '../../../shared/tenancy/partner/partner-domains';
import { ownedProject, PROJECT_NOT_FOUND } from './owned-project';
import { partnerReadAccess } from './partner-access';

/** `GET /v1/partner/projects/{projectId}/domains` (4.13): the project's domains and their state. */
export const listDomains = defineRoute({
  method: 'GET',
  path: '/v1/partner/projects/{projectId}/domains',
  auth: 'partner',
  summary: 'The project\'s domains',
  answers: {
    200: json(partnerDomainListSchema, 'The domains; `verification_url` is null where no page token exists yet (reading never creates one)', {
      domains: [
        {
          domain: 'mail.acme.example',
          identity_id: '7c9e2b4a-1d3f-4a6b-8e5c-2f1a0b9d8c7e',
          verification_status: 'verified',
          can_send: true,
          verification_url: 'https://api.mail.example.com/verify/vp_3kT9xQ2mLr8sW4aZ',
        },
      ],
    }),
    ...errors('partner', { 404: PROJECT_NOT_FOUND }),
  },
  access: partnerReadAccess,
  handle: async (request) => {
    const project = await ownedProject(request);
    return { status: 200, body: { domains: await listDomainSummaries(services(), project.id, publicBaseUrl(request)) } };
  },
});
