import { services } from '../../../composition/services';
import { domainExamples, domainVerifiedSchema } from '../../../shared/identities/domains/domain-answers';
import { checkDomain } from '../../../shared/identities/domains/domain-service';
import { findSenderById } from '../../../shared/identities/domains/sender-service';
import { errors, json } from '../../../shared/platform/http/answers';
import { defineRoute } from '../../../shared/platform/http/route';
import { identityView, pathDomain, projectOf } from './identity-view';

/** `POST /domains/{domain}/verify` (4.12): checks the domain with the provider now; SPF and DMARC wait for the next DNS sweep. */
export const verifyDomain = defineRoute({
  method: 'POST',
  path: '/domains/{domain}/verify',
  auth: 'project',
  summary: 'Check verification now',
  answers: {
    200: json(domainVerifiedSchema, 'The domain as the provider sees it now', domainExamples.verified),
    ...errors('project', {
      400: 'The path names no valid domain',
      404: 'The project has no such domain (DOMAIN_NOT_FOUND)',
      409: 'Another project verified the domain first (DOMAIN_TAKEN); or checks raced (DOMAIN_BUSY)',
    }),
  },
  // Reads the SES identity, writes the domain and publishes the domain events a transition decides.
  access: { table: 'readWrite', enqueue: ['events'], sesIdentities: 'read' },
  handle: async (request) => {
    const deps = services();
    const projectId = projectOf(request);
    const domain = await checkDomain(deps, projectId, pathDomain(request), { resetSpfAndDmarc: true });
    const sender = domain.sender_profile_id ? await findSenderById(deps, projectId, domain.sender_profile_id) : undefined;
    return {
      status: 200,
      body: {
        success: true,
        ...(await identityView(request, domain)),
        sender_profile: sender
          ? { id: sender.id, from_name: sender.from_name, from_email: sender.from_email, domain_authenticated: domain.verification_status === 'verified' }
          : null,
        details: domain.details,
      },
    };
  },
});
