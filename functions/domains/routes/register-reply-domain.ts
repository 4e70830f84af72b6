import { services } from '../../../composition/services';
import { domainExamples, replyDomainRegisteredSchema } from '../../../shared/identities/domains/domain-answers';
import { subdomainBodySchema } from '../../../shared/identities/domains/subdomain-request';
import { presentSubdomain, registerSubdomain } from '../../../shared/identities/domains/subdomains';
import { errors, json } from '../../../shared/platform/http/answers';
import { defineRoute } from '../../../shared/platform/http/route';
import { projectOf, RECORD_SETTINGS } from './identity-view';

/** `POST /domains/reply` (4.12): the reply subdomain of a sending domain, so that replies land at a name on it. */
export const registerReplyDomain = defineRoute({
  method: 'POST',
  path: '/domains/reply',
  auth: 'project',
  summary: 'Set up the reply domain',
  description: 'Takes the sending domain or its `reply.` subdomain. One already registered is returned as it is, with 200 and `existing: true`.',
  body: subdomainBodySchema,
  bodyExample: { domain: 'mail.example.com' },
  answers: {
    200: json(replyDomainRegisteredSchema, 'Registered before: returned as it is', { ...domainExamples.reply, existing: true }),
    201: json(replyDomainRegisteredSchema, 'Registered: the MX record to publish', domainExamples.reply),
    ...errors('project', {
      400: 'Invalid request: a missing or invalid domain, or a domain not registered with POST /domains/register',
      409: 'Receiving is off on this deployment: it was deployed without an inbound domain (RECEIVING_OFF); or the record could not be written (SUBDOMAIN_FAILED)',
    }),
  },
  access: { table: 'readWrite', settings: [...RECORD_SETTINGS] },
  handle: async (request) => {
    const { subdomain, existing } = await registerSubdomain(services(), projectOf(request), 'reply', request.body);
    return { status: existing ? 200 : 201, body: { success: true, domain: subdomain.parent_domain, reply_domain: presentSubdomain(subdomain), existing } };
  },
});
