import type { Needs } from '../../platform/core/dependencies';
import { AppError } from '../../platform/core/errors';
import type { SendingDomain } from '../../identities/domains/domain';
import { presentRecord, verificationUrl } from '../../identities/domains/domain-presenter';
import { checkDomain, registerDomain, requireDomain } from '../../identities/domains/domain-service';
import { listDomains } from '../../identities/domains/domain-repository';
import { presentSubdomain, registerSubdomain, subdomainsOf, type Subdomain, type SubdomainKind } from '../../identities/domains/subdomains';
import { presentSender } from '../../identities/domains/sender-service';
import type { SenderInput } from './project-request';

/** One step of onboarding that failed or was skipped (4.13: `{step, error_code, error}`). */
export interface StepReport {
  step: 'domain' | 'reply_domain' | 'tracking_domain' | 'verification_link';
  error_code?: string;
  error?: string;
  reason?: string;
}

/**
 * The domain pack of partner responses: the identity with `records` (the 8 of part 2, then the reply
 * and tracking records), each with `fqdn` to publish and `name`.
 */
export function domainPack(domain: SendingDomain, reply: Subdomain | undefined, tracking: Subdomain | undefined, baseUrl: string | undefined) {
  const records = [
    ...domain.dns_records.map((r) => presentRecord(r, domain.domain, true)),
    ...(reply?.records ?? []).map((r) => presentRecord(r, domain.domain, true)),
    ...(tracking?.records ?? []).map((r) => presentRecord(r, domain.domain, true)),
  ];
  return {
    domain: domain.domain,
    identity_id: domain.identity_id,
    verification_status: domain.verification_status,
    can_send: domain.can_send,
    records,
    verification_url: verificationUrl(domain, baseUrl),
    reply_domain: presentSubdomain(reply),
    tracking_domain: presentSubdomain(tracking),
  };
}

/** Adds a best-effort reply or tracking subdomain; an existing one is skipped, a failure is a warning. */
async function addSubdomain(deps: Needs<'config' | 'db' | 'clock'>, projectId: string, domain: string, kind: SubdomainKind, warnings: StepReport[], skipped: StepReport[]) {
  const step = kind === 'reply' ? 'reply_domain' : 'tracking_domain';
  try {
    const { subdomain, existing } = await registerSubdomain(deps, projectId, kind, { domain });
    if (existing) skipped.push({ step, reason: `${subdomain.domain} already exists and was left as it is` });
    return subdomain;
  } catch (error) {
    warnings.push({ step, error_code: error instanceof AppError ? (error.code ?? 'FAILED') : 'FAILED', error: (error as Error).message });
    return undefined;
  }
}

/**
 * Onboards a domain for a client project: registers it with its sender (errors are the caller's),
 * then the reply and tracking subdomains and the verification link, best effort.
 */
export async function onboardDomain(deps: Needs<'config' | 'db' | 'clock' | 'identities' | 'tenants'>, projectId: string, input: { domain: string; sender: SenderInput }, baseUrl: string | undefined) {
  const registration = await registerDomain(deps, projectId, { domain: input.domain, senderName: input.sender.name, senderEmail: input.sender.email });
  const warnings: StepReport[] = [];
  const skipped: StepReport[] = [];
  const reply = await addSubdomain(deps, projectId, input.domain, 'reply', warnings, skipped);
  const tracking = await addSubdomain(deps, projectId, input.domain, 'tracking', warnings, skipped);
  const pack = domainPack(registration.domain, reply, tracking, baseUrl);
  if (!pack.verification_url) warnings.push({ step: 'verification_link', error_code: 'NO_BASE_URL', error: 'The verification page link could not be built for this request' });
  return {
    pack,
    sender: { ...presentSender(registration.sender, registration.domain) },
    reused: registration.reused,
    warnings,
    skipped,
  };
}

/** The pack of one domain of a project, read from the store only (no lookups, `skipped` always empty). */
export async function readDomainPack(deps: Needs<'db'>, projectId: string, name: string, baseUrl: string | undefined) {
  const domain = await requireDomain(deps, projectId, name);
  const { reply, tracking } = await subdomainsOf(deps.db, projectId, domain.domain);
  return domainPack(domain, reply, tracking, baseUrl);
}

/** Forces verification of identity, DKIM and return path; reply and tracking state comes back read-only. */
export async function verifyDomainPack(deps: Needs<'db' | 'clock' | 'identities' | 'events' | 'dns'>, projectId: string, name: string, baseUrl: string | undefined) {
  await requireDomain(deps, projectId, name);
  const domain = await checkDomain(deps, projectId, name, { resetSpfAndDmarc: true });
  const { reply, tracking } = await subdomainsOf(deps.db, projectId, domain.domain);
  return { ...domainPack(domain, reply, tracking, baseUrl), details: domain.details ?? null };
}

/** The project's domains as `GET /v1/partner/projects/{projectId}/domains` lists them. */
export async function listDomainSummaries(deps: Needs<'db'>, projectId: string, baseUrl: string | undefined) {
  const domains = await listDomains(deps.db, projectId);
  return domains.map((d) => ({
    domain: d.domain,
    identity_id: d.identity_id,
    verification_status: d.verification_status,
    can_send: d.can_send,
    // Reading never creates a page token: a domain without one shows null.
    verification_url: verificationUrl(d, baseUrl),
  }));
}
