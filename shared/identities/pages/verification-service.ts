import type { Needs } from '../../platform/core/dependencies';
import type { SendingDomain } from '../domains/domain';
import { findVerificationPage, getDomain } from '../domains/domain-repository';
import { checkDomain } from '../domains/domain-service';
import { notFound } from '../../platform/core/errors';
import { PAGE_TOKEN } from './verification-view';

/**
 * The domain a page token points at, or undefined. The token must be well formed, its lookup must
 * exist, and the domain must still carry this very token (a domain deleted and registered again
 * gets a new one, so an old link does not come back to life).
 */
export async function domainOfPageToken(deps: Needs<'db'>, token: string | undefined): Promise<SendingDomain | undefined> {
  if (!token || !PAGE_TOKEN.test(token)) return undefined;
  const page = await findVerificationPage(deps.db, token);
  if (!page) return undefined;
  const domain = await getDomain(deps.db, page.project_id, page.domain, true);
  return domain && domain.verification_page_token === token ? domain : undefined;
}

/** The page's "Verify now": checks the token's domain again (SPF and DMARC from scratch), or the 404 of a dead link. */
export async function verifyByPageToken(deps: Needs<'db' | 'clock' | 'identities' | 'events' | 'dns'>, token: string | undefined): Promise<SendingDomain> {
  const domain = await domainOfPageToken(deps, token);
  if (!domain) throw notFound('This verification link is not valid');
  return checkDomain(deps, domain.project_id, domain.domain, { resetSpfAndDmarc: true });
}
