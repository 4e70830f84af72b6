import { parseAuthorization } from '../shared/platform/security/api-keys';
import type { Services } from '../composition/services';
import { fqdn } from '../shared/identities/domains/dns-records';
import { getDomain } from '../shared/identities/domains/domain-repository';
import { subdomainsOf } from '../shared/identities/domains/subdomains';
import type { LocalAnswer, LocalRequest } from '../shared/mail-pipeline/inbound/local-injection';
import { findApiKey } from '../shared/platform/projects/project-repository';
import type { LocalDnsServer } from './emulators/dns';

/**
 * Publishes every record a project was given for a domain (the 8 of part 2, then its reply and
 * tracking records) to the local DNS, as the domain's owner would at their DNS provider. Returns
 * how many were published; 0 when the project has no such domain.
 */
export async function publishDomainRecords(deps: Services, dns: LocalDnsServer, projectId: string, name: string): Promise<number> {
  const domain = await getDomain(deps.db, projectId, name.toLowerCase(), true);
  if (!domain) return 0;
  const { reply, tracking } = await subdomainsOf(deps.db, projectId, domain.domain);
  const records = [...domain.dns_records, ...(reply?.records ?? []), ...(tracking?.records ?? [])];
  for (const r of records) {
    const at = fqdn(r.name, domain.domain);
    if (r.record_type === 'MX') {
      // The return-path MX carries its priority inside `value` ("10 host"); the reply MX has `priority`.
      const [first, ...rest] = r.value.split(' ');
      const exchange = rest.length > 0 ? rest.join(' ') : first;
      dns.publish(at, 'MX', { exchange, priority: r.priority ?? (rest.length > 0 ? Number(first) : 10) });
    } else {
      dns.publish(at, r.record_type, r.value);
    }
  }
  return records.length;
}

/**
 * `POST /_local/dns/publish` of the local cloud (never in AWS): body `{"domain"}`, with the
 * project's API key as for any project route. Publishes that project's records of the domain.
 */
export function dnsPublishRoute(deps: () => Services, dns: LocalDnsServer) {
  return async (request: LocalRequest): Promise<LocalAnswer> => {
    let projectId: string | undefined;
    try {
      projectId = (await findApiKey(deps().db, parseAuthorization(request.headers.authorization, 'project').hash))?.project_id;
    } catch {
      projectId = undefined;
    }
    if (!projectId) return { status: 401, body: { error: 'Send the project API key: Authorization: Bearer sk_live_...' } };
    let domain: unknown;
    try {
      domain = (JSON.parse(request.body.toString('utf8') || '{}') as Record<string, unknown>).domain;
    } catch {
      return { status: 400, body: { error: 'Request body is not valid JSON' } };
    }
    if (typeof domain !== 'string' || !domain) return { status: 400, body: { error: 'Missing required fields: domain' } };
    const published = await publishDomainRecords(deps(), dns, projectId, domain);
    if (published === 0) return { status: 404, body: { error: `Domain ${domain.toLowerCase()} not found` } };
    return { status: 200, body: { success: true, domain: domain.toLowerCase(), published } };
  };
}
