import { services } from '../../shared/container';
import { presentIdentity, presentRecord } from '../../shared/domains/domain-presenter';
import type { SendingDomain } from '../../shared/domains/domain';
import { checkDomain, recreateDomain, registerDomain, requireDomain } from '../../shared/domains/domain-service';
import { parseRegisterRequest } from '../../shared/domains/register-request';
import { discoverDomainConnect } from '../../shared/domains/domain-connect';
import { domainHealth } from '../../shared/domains/domain-health';
import { findSenderById, mailboxConfirmed, presentSender, startMailboxVerification } from '../../shared/domains/sender-service';
import { presentSubdomain, registerSubdomain, subdomainsOf } from '../../shared/domains/subdomains';
import { parseSubdomainRequest } from '../../shared/domains/subdomain-request';
import { apiHandler } from '../../shared/http/api-handler';
import { projectCaller, publicBaseUrl, type ApiRequest } from '../../shared/http/api-types';
import { domainParam as readDomainParam } from '../../shared/http/path-params';

const projectOf = (request: ApiRequest) => projectCaller(request).project.id;
const domainParam = (request: ApiRequest) => readDomainParam(request.params);

/** A domain as the register, verify and recreate answers show it: with its reply and tracking subdomains and verification page. */
const identityView = async (request: ApiRequest, domain: SendingDomain) =>
  presentIdentity(domain, { ...(await subdomainsOf(services().db, domain.project_id, domain.domain)), baseUrl: publicBaseUrl(request) });

/** Endpoint group `domains`: sending domains, their records and verification, and senders. */
export const handler = apiHandler('domains', {
  'POST /domains/register': async (request) => {
    const deps = services();
    const projectId = projectOf(request);
    const { domain, sender, reused } = await registerDomain(deps, projectId, parseRegisterRequest(request.body));
    const identity = await identityView(request, domain);
    const senderView = presentSender(sender, domain);
    return {
      status: 201,
      body: {
        success: true,
        ...identity,
        sender: { from_name: senderView.from_name, from_email: senderView.from_email, domain_authenticated: senderView.domain_authenticated },
        reused,
      },
    };
  },

  'GET /domains/{domain}/dns-records': async (request) => {
    const domain = await requireDomain(services(), projectOf(request), domainParam(request));
    return {
      status: 200,
      body: {
        success: true,
        identity_id: domain.identity_id,
        domain: domain.domain,
        verification_status: domain.verification_status,
        dns_records: domain.dns_records.map((r) => presentRecord(r, domain.domain)),
      },
    };
  },

  'POST /domains/{domain}/verify': async (request) => {
    const deps = services();
    const projectId = projectOf(request);
    const domain = await checkDomain(deps, projectId, domainParam(request), { resetSpfAndDmarc: true });
    const sender = domain.sender_profile_id ? await findSenderById(services(), projectId, domain.sender_profile_id) : undefined;
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

  'GET /domains/{domain}/status': async (request) => {
    const domain = await requireDomain(services(), projectOf(request), domainParam(request));
    return {
      status: 200,
      body: {
        success: true,
        identity_id: domain.identity_id,
        domain: domain.domain,
        verification_status: domain.verification_status,
        can_send: domain.can_send,
        send_ready: Boolean(domain.send_ready_at),
        details: domain.details ?? null,
        last_checked_at: domain.last_checked_at,
      },
    };
  },

  'POST /domains/{domain}/recreate': async (request) => {
    const domain = await recreateDomain(services(), projectOf(request), domainParam(request));
    return {
      status: 200,
      body: {
        success: true,
        recreated: true,
        ...(await identityView(request, domain)),
      },
    };
  },

  'GET /domains/{domain}/domain-connect': async (request) => {
    const deps = services();
    const domain = await requireDomain(deps, projectOf(request), domainParam(request));
    return { status: 200, body: { success: true, domain: domain.domain, ...(await discoverDomainConnect(deps, domain)) } };
  },

  'POST /domains/reply': async (request) => {
    const { subdomain, existing } = await registerSubdomain(services(), projectOf(request), 'reply', parseSubdomainRequest(request.body));
    return { status: existing ? 200 : 201, body: { success: true, domain: subdomain.parent_domain, reply_domain: presentSubdomain(subdomain), existing } };
  },

  'POST /domains/tracking': async (request) => {
    const { subdomain, existing } = await registerSubdomain(services(), projectOf(request), 'tracking', parseSubdomainRequest(request.body));
    return { status: existing ? 200 : 201, body: { success: true, domain: subdomain.parent_domain, tracking_domain: presentSubdomain(subdomain), existing } };
  },

  'GET /domains/health': async (request) => {
    return { status: 200, body: await domainHealth(services(), projectOf(request)) };
  },

  'POST /domains/verify-email': async (request) => {
    const sender = await startMailboxVerification(services(), projectCaller(request).project, request.body, publicBaseUrl(request));
    return {
      status: 201,
      body: {
        success: true,
        sender: presentSender(sender, undefined),
        message: mailboxConfirmed(sender)
          ? `${sender.from_email} is already verified`
          : `Verification email sent to ${sender.from_email}; the sender can send once its owner clicks the link`,
        warning: 'This sender has no DKIM signature of its own domain; register the domain for authenticated sending',
      },
    };
  },
});
