import { services } from '../../../composition/services';
import type { SendingDomain } from '../../../shared/identities/domains/domain';
import { presentIdentity } from '../../../shared/identities/domains/domain-presenter';
import { subdomainsOf } from '../../../shared/identities/domains/subdomains';
import type { ProjectCaller } from '../../../shared/platform/auth/authenticate';
import { publicBaseUrl } from '../../../shared/platform/http/api-types';
import { domainParam } from '../../../shared/platform/http/path-params';
import type { FunctionAccess } from '../../../shared/platform/core/function-access';

/** The settings providerHosts (shared/identities/domains/dns-records.ts) reads: the records a domain or subdomain is given. */
export const RECORD_SETTINGS = ['RECEIVING', 'INBOUND_DOMAIN', 'TRACKING_HOST', 'DMARC_REPORTS_DOMAIN'] as const satisfies FunctionAccess['settings'];

/** What a route that only reads stored domains touches. */
export const readDomains: FunctionAccess = { table: 'read' };

/** The `{domain}` of a request's path, checked (400 `Invalid domain: ...`). */
export const pathDomain = (request: { params: Readonly<Record<string, string>> }) => domainParam(request.params);

/** The calling project's id. */
export const projectOf = (request: { caller: ProjectCaller }) => request.caller.project.id;

/** A domain as the register, verify and recreate answers show it: with its reply and tracking subdomains and verification page. */
export async function identityView(request: { domainName?: string }, domain: SendingDomain) {
  return presentIdentity(domain, { ...(await subdomainsOf(services().db, domain.project_id, domain.domain)), baseUrl: publicBaseUrl(request) });
}
