import { services } from '../../../composition/services';
import { domainExamples, domainRegisteredSchema } from '../../../shared/identities/domains/domain-answers';
import { registerDomain } from '../../../shared/identities/domains/domain-service';
import { registerDomainBodySchema, toRegisterInput } from '../../../shared/identities/domains/register-request';
import { presentSender } from '../../../shared/identities/domains/sender-service';
import { errors, json } from '../../../shared/platform/http/answers';
import { defineRoute } from '../../../shared/platform/http/route';
import { identityView, projectOf, RECORD_SETTINGS } from './identity-view';

/** `POST /domains/register` (4.12): a sending domain, its SES identity, its 8 records and its sender. */
export const registerDomainRoute = defineRoute({
  method: 'POST',
  path: '/domains/register',
  auth: 'project',
  summary: 'Register a sending domain and its sender',
  description: 'Idempotent: registering a domain again reconciles an incomplete registration and answers 201 with `reused: true`.',
  body: registerDomainBodySchema,
  bodyExample: { domain: 'mail.example.com', sender_name: 'Example', sender_email: 'hello@mail.example.com' },
  answers: {
    201: json(domainRegisteredSchema, 'Registered (or reconciled): the records to publish', domainExamples.registered),
    ...errors('project', {
      409: 'Another project verified the domain (DOMAIN_TAKEN); its SES identity was not made by this deployment (by hand, another application, an earlier deployment) or for this project (IDENTITY_NOT_OWNED: delete it in SES first, or use another domain); or registrations raced (DOMAIN_BUSY)',
    }),
  },
  // Creates the SES identity and its MAIL FROM; the records follow the deployment's hosts.
  access: { table: 'readWrite', sesIdentities: 'manage', sesTenants: 'manage', settings: [...RECORD_SETTINGS] },
  handle: async (request) => {
    const { domain, sender, reused } = await registerDomain(services(), projectOf(request), toRegisterInput(request.body));
    const identity = await identityView(request, domain);
    const { from_name, from_email, domain_authenticated } = presentSender(sender, domain);
    return { status: 201, body: { success: true, ...identity, sender: { from_name, from_email, domain_authenticated }, reused } };
  },
});
