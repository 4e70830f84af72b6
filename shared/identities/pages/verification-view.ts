import { fqdn } from '../domains/dns-records';
import type { RecordStatus, SendingDomain, VerificationStatus } from '../domains/domain';

/**
 * The view model of the public domain verification page (`/verify/{token}`): the domain, its
 * status and its DNS records, nothing else of the project.
 */

/** A verification-page token as issued (24 random bytes, base64url); anything else is not looked up. */
export const PAGE_TOKEN = /^[A-Za-z0-9_-]{16,128}$/;

/** One record as the page and its verify call show it. */
export interface PageRecord {
  record_type: string;
  name: string;
  fqdn: string;
  value: string;
  ttl_hint: number;
  status: RecordStatus;
}

/** Everything the page may show: the domain, its status, its records. */
export interface PageView {
  domain: string;
  verification_status: VerificationStatus;
  can_send: boolean;
  records: PageRecord[];
}

/** Picks the shown fields out of a domain record (never the project, keys, tokens or senders). */
export function pageView(domain: SendingDomain): PageView {
  return {
    domain: domain.domain,
    verification_status: domain.verification_status,
    can_send: domain.can_send,
    records: domain.dns_records.map((r) => ({
      record_type: r.record_type,
      name: r.name,
      fqdn: fqdn(r.name, domain.domain),
      value: r.value,
      ttl_hint: r.ttl_hint,
      status: r.status,
    })),
  };
}

/** The answer of `POST /verify/{token}`: only these fields. */
export function verifyResult(domain: SendingDomain): {
  domain: string;
  verification_status: VerificationStatus;
  can_send: boolean;
  dns_records: { record_type: string; name: string; fqdn: string; value: string; status: RecordStatus }[];
} {
  const view = pageView(domain);
  return {
    domain: view.domain,
    verification_status: view.verification_status,
    can_send: view.can_send,
    dns_records: view.records.map((r) => ({ record_type: r.record_type, name: r.name, fqdn: r.fqdn, value: r.value, status: r.status })),
  };
}

/** How the page names each status of the domain; the page's script uses the same labels. */
export const DOMAIN_STATUS_LABELS: Readonly<Record<VerificationStatus, string>> = { pending: 'Pending', verified: 'Verified', failed: 'Failed' };

/** How the page names each status of a record; the page's script uses the same labels. */
export const RECORD_STATUS_LABELS: Readonly<Record<RecordStatus, string>> = {
  not_set: 'Not set',
  propagating: 'Propagating',
  mismatch: 'Mismatch',
  verified: 'Verified',
};
