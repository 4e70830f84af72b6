import { services } from '../../../composition/services';
import { errors, json } from '../../../shared/platform/http/answers';
import { defineRoute } from '../../../shared/platform/http/route';
import { publicBaseUrl } from '../../../shared/platform/http/api-types';
import { partnerSenderCreatedSchema } from '../../../shared/tenancy/partner/partner-answers';
import { createPartnerSender } from '../../../shared/tenancy/partner/partner-senders';
import { invalidInput, orEmptyBody, senderCreationBodySchema, toSenderCreation } from '../../../shared/tenancy/partner/project-request';
import { ownedProject, PROJECT_NOT_FOUND } from './owned-project';
import { senderAccess } from './partner-access';
import { senderExample } from './partner-examples';

/** `POST /v1/partner/projects/{projectId}/senders` (4.13): a sender on a verified domain, or by magic link when allowed. */
export const createSender = defineRoute({
  method: 'POST',
  path: '/v1/partner/projects/{projectId}/senders',
  auth: 'partner',
  summary: 'Create a sender',
  description:
    'On a verified domain the sender is authenticated (`path: domain`). Otherwise it needs `allow_unauthenticated: true`: the mailbox owner gets a verification mail ' +
    '(`path: magic_link`, no DKIM); without it the answer is 422 DOMAIN_NOT_VERIFIED.',
  body: orEmptyBody(senderCreationBodySchema),
  bodyExample: { name: 'Acme', email: 'news@mail.acme.example' },
  refuse: invalidInput,
  answers: {
    201: json(partnerSenderCreatedSchema, 'Created', { ...senderExample, path: 'domain' }),
    ...errors('partner', {
      400: 'Invalid body (INVALID_INPUT): name and email missing or invalid, or a non-boolean `allow_unauthenticated`',
      403: 'Magic link on a disabled project: no mail may leave it (PROJECT_DISABLED)',
      404: PROJECT_NOT_FOUND,
      409: 'The address is a sender of a registered domain already (SENDER_EXISTS), or the sender changed concurrently (CONFLICT)',
      422: 'The domain is not verified and `allow_unauthenticated` was not sent (DOMAIN_NOT_VERIFIED, with `verification_status`: null when unregistered)',
    }),
  },
  access: senderAccess,
  handle: async (request) => ({
    status: 201,
    body: await createPartnerSender(services(), await ownedProject(request), toSenderCreation(request.body), publicBaseUrl(request)),
  }),
});
