import { badRequest } from '../core/errors';
import { isDomainName, isEmail } from '../mail/addresses';

/**
 * Readers of path parameters that name stored items by value. API Gateway hands them over decoded;
 * a value that cannot name such an item is a 400 before it reaches a key (DynamoDB refuses keys over
 * 2 KB, and an over-long or malformed name would otherwise surface as a 500).
 */

/** The `{domain}` parameter, lowercased without a final dot; 400 unless a domain name (at most 253 characters). */
export function domainParam(params: Readonly<Record<string, string | undefined>>): string {
  const domain = (params.domain ?? '').trim().toLowerCase().replace(/\.$/, '');
  if (!isDomainName(domain)) throw badRequest(`Invalid domain: ${clip(params.domain ?? '')}`);
  return domain;
}

/** The `{email}` parameter, trimmed; 400 unless an email address (at most 254 characters). */
export function emailParam(params: Readonly<Record<string, string | undefined>>): string {
  const email = (params.email ?? '').trim();
  if (!isEmail(email)) throw badRequest(`Invalid email address: ${clip(params.email ?? '')}`);
  return email;
}

/** A refused value as an error message may echo it: at most 320 characters. */
function clip(value: string): string {
  return value.length > 320 ? `${value.slice(0, 320)}…` : value;
}
