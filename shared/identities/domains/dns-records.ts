import { randomUUID } from 'node:crypto';
import type { Config } from '../../platform/core/config';
import type { DnsRecord } from './domain';

/** Provider hosts and labels that the records point at; configuration, defaulting to SES's for the region. */
export interface ProviderHosts {
  label: string;
  dkimHost: string;
  spfHost: string;
  feedbackHost: string;
  inboundHost: string;
  /** Whether the deployment receives mail: reply domains (an MX to inboundHost) need it. */
  receiving: boolean;
  /** Domain of the DMARC reports address (`rua`); unset when nobody receives them (no `rua` then). */
  dmarcReportsDomain: string | undefined;
  /** Unset when the deployment serves no tracking domains (no TRACKING_HOST). */
  trackingHost: string | undefined;
}

/** The provider hosts from the configuration. */
export function providerHosts(cfg: Config): ProviderHosts {
  return {
    label: cfg.PROVIDER_LABEL,
    dkimHost: cfg.PROVIDER_DKIM_HOST,
    spfHost: cfg.PROVIDER_SPF_HOST,
    feedbackHost: cfg.PROVIDER_FEEDBACK_HOST ?? `feedback-smtp.${cfg.AWS_REGION}.amazonses.com`,
    inboundHost: cfg.PROVIDER_INBOUND_HOST ?? `inbound-smtp.${cfg.AWS_REGION}.amazonaws.com`,
    receiving: cfg.RECEIVING === 'on',
    // Without receiving, INBOUND_DOMAIN receives nothing: reports sent there would bounce.
    dmarcReportsDomain: cfg.DMARC_REPORTS_DOMAIN ?? (cfg.RECEIVING === 'on' ? cfg.INBOUND_DOMAIN : undefined),
    trackingHost: cfg.TRACKING_HOST,
  };
}

/** Subdomain of the custom MAIL FROM (return path). */
export const MAIL_FROM_LABEL = 'send';

const DKIM_TTL = 1800;
const OTHER_TTL = 300;

/**
 * The 8 records of part 2, in order, every one `not_set` and never checked. The DMARC record names a
 * reports address (`rua`) only when the deployment has a reports domain; it is `v=DMARC1; p=none` otherwise.
 */
export function registrationRecords(input: { identityId: string; token: string; dkimTokens: string[]; hosts: ProviderHosts }): DnsRecord[] {
  const { hosts } = input;
  const record = (r: Omit<DnsRecord, 'id' | 'status' | 'last_checked_at'>): DnsRecord => ({ id: randomUUID(), ...r, status: 'not_set', last_checked_at: null });
  const spf = `v=spf1 include:${hosts.spfHost} ~all`;
  return [
    record({ record_type: 'TXT', name: `_${hosts.label}`, value: input.token, purpose: 'provider_verification', ttl_hint: OTHER_TTL }),
    ...input.dkimTokens.map((t) =>
      record({ record_type: 'CNAME', name: `${t}._domainkey`, value: `${t}.${hosts.dkimHost}`, purpose: 'dkim', ttl_hint: DKIM_TTL }),
    ),
    record({ record_type: 'TXT', name: '@', value: spf, purpose: 'spf', ttl_hint: OTHER_TTL }),
    record({
      record_type: 'TXT',
      name: '_dmarc',
      value: dmarcValue(input.identityId, hosts.dmarcReportsDomain),
      purpose: 'dmarc',
      ttl_hint: OTHER_TTL,
    }),
    record({ record_type: 'MX', name: MAIL_FROM_LABEL, value: `10 ${hosts.feedbackHost}`, purpose: 'return_path', ttl_hint: OTHER_TTL }),
    record({ record_type: 'TXT', name: MAIL_FROM_LABEL, value: spf, purpose: 'return_path', ttl_hint: OTHER_TTL }),
  ];
}

/** The DMARC policy to publish: monitoring only, with the reports address when there is a reports domain. */
function dmarcValue(identityId: string, reportsDomain: string | undefined): string {
  return reportsDomain ? `v=DMARC1; p=none; rua=mailto:d-${identityId}@${reportsDomain}` : 'v=DMARC1; p=none';
}

/** Replaces the DKIM records after the provider issued new tokens (recreate, reconciliation). */
export function withDkimTokens(records: DnsRecord[], dkimTokens: string[], hosts: ProviderHosts): DnsRecord[] {
  const first = records.findIndex((r) => r.purpose === 'dkim');
  const kept = records.filter((r) => r.purpose !== 'dkim');
  const dkim: DnsRecord[] = dkimTokens.map((t) => ({
    id: randomUUID(),
    record_type: 'CNAME',
    name: `${t}._domainkey`,
    value: `${t}.${hosts.dkimHost}`,
    purpose: 'dkim',
    status: 'not_set',
    ttl_hint: DKIM_TTL,
    last_checked_at: null,
  }));
  const at = first < 0 ? 1 : first;
  return [...kept.slice(0, at), ...dkim, ...kept.slice(at)];
}

/** The full name to publish (`@` is the domain itself). */
export function fqdn(name: string, domain: string): string {
  return name === '@' ? domain : `${name}.${domain}`;
}
