import type { DnsRecord } from './domain';

/**
 * Reply and tracking subdomains of a sending domain. A reply domain (`reply.<domain>`, an MX to the
 * provider's inbound host) makes replies land on the project's own name; a tracking domain
 * (`track.<domain>`, a CNAME to the service's tracking endpoint) brands open and click links. Both
 * are checked by the DNS sweep.
 */
export type SubdomainKind = 'reply' | 'tracking';

export interface Subdomain {
  project_id: string;
  kind: SubdomainKind;
  /** The sending domain it belongs to. */
  parent_domain: string;
  /** The full subdomain name (`reply.example.com`). */
  domain: string;
  status: 'pending' | 'verified';
  records: DnsRecord[];
  created_at: string;
  last_checked_at: string | null;
  /** Tracking domains only: whether https://<domain> is served yet (docs/decisions.md, "Tracking domains and TLS"). */
  tls?: TrackingTls;
}

/** HTTPS of a tracking domain at the edge; links use the domain only once this is `active`. */
export interface TrackingTls {
  status: 'provisioning' | 'active' | 'failed';
  /** The edge's words when not active. */
  detail?: string;
  /** First time the edge was asked to serve the domain. */
  requested_at: string;
  checked_at: string;
  /** When the re-check job asks the edge again; null once active or failed. */
  next_check_at: string | null;
}
