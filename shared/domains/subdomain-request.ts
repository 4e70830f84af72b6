import { badRequest } from '../errors';
import { isDomainName } from '../mail/addresses';

/** A validated `POST /domains/reply` or `POST /domains/tracking`: the sending domain, or its subdomain, named. */
export interface SubdomainInput {
  domain: string;
}

/** Validates a `/domains/reply` or `/domains/tracking` body; throws the 400 of part 7. */
export function parseSubdomainRequest(body: unknown): SubdomainInput {
  const raw = (body ?? {}) as Record<string, unknown>;
  const parent = typeof raw.domain === 'string' ? raw.domain.trim().toLowerCase().replace(/\.$/, '') : '';
  if (!parent) throw badRequest('Missing required fields: domain');
  if (!isDomainName(parent)) throw badRequest(`Invalid domain: ${parent}`);
  return { domain: parent };
}
