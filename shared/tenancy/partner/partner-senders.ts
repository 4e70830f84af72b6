import type { Needs } from '../../platform/core/dependencies';
import { getDomain, listDomains } from '../../identities/domains/domain-repository';
import { listSenders } from '../../identities/domains/sender-repository';
import { ensureDomainSender, presentSender, startMailboxVerification } from '../../identities/domains/sender-service';
import type { Project } from '../../platform/projects/project';
import { domainOf } from '../../platform/mail/addresses';
import { partnerError } from './project-request';

/** The project's senders, each with `sender_source`. */
export async function listPartnerSenders(deps: Needs<'db'>, project: Project) {
  const [senders, domains] = await Promise.all([listSenders(deps.db, project.id), listDomains(deps.db, project.id)]);
  const byDomain = new Map(domains.map((d) => [d.domain, d]));
  return { senders: senders.map((s) => presentSender(s, byDomain.get(domainOf(s.from_email)))) };
}

/**
 * Creates a sender. On a verified domain it is authenticated (`path: domain`). Otherwise it needs
 * `allow_unauthenticated`: the owner gets a verification mail (`path: magic_link`, no DKIM; the
 * project's own confirmation link decides, and a disabled project may not ask);
 * without the flag it is 422 DOMAIN_NOT_VERIFIED with the domain's status (null: not registered).
 */
export async function createPartnerSender(
  deps: Needs<'config' | 'db' | 'clock' | 'identities' | 'tenants'>,
  project: Project,
  input: { name: string; email: string; allowUnauthenticated: boolean },
  baseUrl?: string,
) {
  const domain = await getDomain(deps.db, project.id, domainOf(input.email), true);
  if (domain?.verification_status === 'verified') {
    const sender = await ensureDomainSender(deps, project.id, input.email, input.name, 'admin');
    return { ...presentSender(sender, domain), path: 'domain' };
  }
  if (!input.allowUnauthenticated) {
    throw partnerError(422, 'DOMAIN_NOT_VERIFIED', `The domain ${domainOf(input.email)} is not verified; verify it or send allow_unauthenticated: true`, {
      verification_status: domain?.verification_status ?? null,
    });
  }
  const sender = await startMailboxVerification(deps, project, { email: input.email, name: input.name }, baseUrl);
  return {
    ...presentSender(sender, domain),
    path: 'magic_link',
    warning: 'This sender is not authenticated by its domain (no DKIM): deliverability will be lower until the domain is verified',
  };
}
