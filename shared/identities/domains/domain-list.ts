import type { PageRequest } from '../../platform/http/pagination';
import type { Db } from '../../platform/store/client';
import { presentDomainSummary } from './domain-presenter';
import { pageDomains } from './domain-repository';
import { subdomainsOfMany } from './subdomains';

/**
 * `GET /domains`: one page of the project's sending domains, newest first, each with its reply and
 * tracking subdomains in short. The work is bounded by the page: the list index's entries up to the
 * page (offsets to 1,000, a cursor beyond) and a bounded count, then 3 item reads per domain shown
 * (the domain, its reply and its tracking subdomain).
 */
export async function listProjectDomains(db: Db, projectId: string, page: PageRequest, cursor: string | undefined) {
  const { domains, ...listed } = await pageDomains(db, projectId, page, cursor);
  const subdomains = await subdomainsOfMany(db, projectId, domains.map((d) => d.domain));
  return { data: domains.map((d) => presentDomainSummary(d, subdomains.get(d.domain) ?? {})), listed };
}
