import type { Needs } from '../../platform/core/dependencies';
import { logger } from '../../platform/core/logger';
import { fqdn } from './dns-records';
import type { RecordStatus, SendingDomain } from './domain';

/**
 * What DNS says of a project's claim to a domain: its `provider_verification` TXT record (a token
 * generated per project and domain, published at `_<provider_label>.<domain>`). `verified` when
 * the token is among the TXT values there, `mismatch` when other values are (another project's
 * token, say), `not_set` when there are none. A failed lookup proves nothing: `not_set`.
 */
export async function ownershipStatus(deps: Needs<'dns'>, domain: SendingDomain): Promise<RecordStatus> {
  const record = domain.dns_records.find((r) => r.purpose === 'provider_verification');
  if (!record || !domain.verification_token) return 'not_set';
  let values: string[];
  try {
    values = await deps.dns.resolveTxt(fqdn(record.name, domain.domain));
  } catch (error) {
    logger.warn('Ownership lookup failed', { domain: domain.domain, error: (error as Error).message });
    return 'not_set';
  }
  if (values.some((v) => v.trim() === domain.verification_token)) return 'verified';
  return values.length > 0 ? 'mismatch' : 'not_set';
}
