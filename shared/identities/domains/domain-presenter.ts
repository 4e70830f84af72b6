import type { DnsRecord, SenderProfile, SendingDomain } from './domain';
import { fqdn } from './dns-records';
import { presentSubdomain, type Subdomain } from './subdomains';

/** A DNS record as part 2 shows it; partner endpoints add `fqdn`. */
export function presentRecord(record: DnsRecord, domain: string, withFqdn = false): Record<string, unknown> {
  const out: Record<string, unknown> = {
    id: record.id,
    record_type: record.record_type,
    name: record.name,
    value: record.value,
    purpose: record.purpose,
    status: record.status,
    ttl_hint: record.ttl_hint,
    last_checked_at: record.last_checked_at,
  };
  if (record.priority !== undefined) out.priority = record.priority;
  if (withFqdn) out.fqdn = fqdn(record.name, domain);
  return out;
}

/** The public verification page of a domain, or null when it has no token yet. */
export function verificationUrl(domain: SendingDomain, baseUrl: string | undefined): string | null {
  return domain.verification_page_token && baseUrl ? `${baseUrl}/verify/${domain.verification_page_token}` : null;
}

/** The sending-domain identity (part 2) with its records. */
export function presentIdentity(
  domain: SendingDomain,
  extras: { sender?: SenderProfile; reply?: Subdomain; tracking?: Subdomain; baseUrl?: string },
): Record<string, unknown> {
  return {
    identity_id: domain.identity_id,
    domain: domain.domain,
    verification_status: domain.verification_status,
    can_send: domain.can_send,
    sender_profile_id: domain.sender_profile_id,
    verification_token: domain.verification_token,
    dkim_tokens: domain.dkim_tokens,
    dns_records: domain.dns_records.map((r) => presentRecord(r, domain.domain)),
    reply_domain: presentSubdomain(extras.reply),
    tracking_domain: presentSubdomain(extras.tracking),
    verification_url: verificationUrl(domain, extras.baseUrl),
  };
}

/** A sending domain as `GET /domains` lists it: its state, the provider's verdicts, and a summary of its reply and tracking subdomains. */
export function presentDomainSummary(domain: SendingDomain, extras: { reply?: Subdomain; tracking?: Subdomain }) {
  const { reply, tracking } = extras;
  return {
    domain: domain.domain,
    identity_id: domain.identity_id,
    verification_status: domain.verification_status,
    can_send: domain.can_send,
    send_ready: Boolean(domain.send_ready_at),
    details: domain.details ?? null,
    reply_domain: reply ? { domain: reply.domain, status: reply.status } : null,
    tracking_domain: tracking ? { domain: tracking.domain, status: tracking.status, https: tracking.tls?.status ?? 'pending' } : null,
    last_checked_at: domain.last_checked_at,
    created_at: domain.created_at,
  };
}
