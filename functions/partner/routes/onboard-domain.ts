import { services } from '../../../composition/services';
import { errors, json } from '../../../shared/platform/http/answers';
import { defineRoute } from '../../../shared/platform/http/route';
import { publicBaseUrl } from '../../../shared/platform/http/api-types';
import { partnerDomainOnboardedSchema } from '../../../shared/tenancy/partner/partner-answers';
import { onboardDomain } from '../../../shared/tenancy/partner/partner-domains';
import { domainOnboardingBodySchema, invalidInput, orEmptyBody, toDomainOnboarding } from '../../../shared/tenancy/partner/project-request';
import { ownedProject, PROJECT_NOT_FOUND } from './owned-project';
import { onboardingAccess } from './partner-access';
import { domainPackExample, senderExample } from './partner-examples';

const onboardedExample = { ...domainPackExample, sender: senderExample, reused: false, warnings: [], skipped: [] };

/** `POST /v1/partner/projects/{projectId}/domains` (4.13): registers a domain with its sender, then its reply and tracking domains, best effort. */
export const onboardDomainRoute = defineRoute({
  method: 'POST',
  path: '/v1/partner/projects/{projectId}/domains',
  auth: 'partner',
  summary: 'Onboard a domain and its sender',
  description:
    'The pack comes back at the top level. Reply and tracking domains are best effort: a failure is a warning, an existing one is left as it is and listed in `skipped`. ' +
    'Also creates the public verification page (`verification_url`).',
  body: orEmptyBody(domainOnboardingBodySchema),
  bodyExample: { domain: 'mail.acme.example', sender: { name: 'Acme', email: 'hello@mail.acme.example' } },
  refuse: invalidInput,
  answers: {
    201: json(partnerDomainOnboardedSchema, 'Registered', onboardedExample),
    200: json(partnerDomainOnboardedSchema, 'Registered already: reconciled (`reused: true`)', { ...onboardedExample, reused: true }),
    ...errors('partner', {
      400: 'Invalid body: INVALID_INPUT, SENDER_REQUIRED_FOR_DOMAIN (no nested sender) or SENDER_DOMAIN_MISMATCH',
      404: PROJECT_NOT_FOUND,
      409: 'The domain is verified by another project (DOMAIN_TAKEN), its SES identity was not made by this deployment (IDENTITY_NOT_OWNED: delete it in SES first, or use another domain), or it is being registered concurrently (DOMAIN_BUSY)',
    }),
  },
  access: onboardingAccess,
  handle: async (request) => {
    const project = await ownedProject(request);
    const onboarded = await onboardDomain(services(), project.id, toDomainOnboarding(request.body), publicBaseUrl(request));
    const body = { ...onboarded.pack, sender: onboarded.sender, reused: onboarded.reused, warnings: onboarded.warnings, skipped: onboarded.skipped };
    return onboarded.reused ? { status: 200, body } : { status: 201, body };
  },
});
