/** Email address and domain name checks shared by every folder that takes them. */

// Deliberately plain: one @, no spaces or angle brackets, a dot in the domain. SES has the last word.
const EMAIL = /^[^\s@<>()[\]",;:\\]+@[A-Za-z0-9](?:[A-Za-z0-9-]*[A-Za-z0-9])?(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]*[A-Za-z0-9])?)+$/;

/** True for a syntactically acceptable address of at most 254 characters. */
export function isEmail(value: string): boolean {
  return value.length <= 254 && EMAIL.test(value);
}

/** The domain of an address, lowercased. */
export function domainOf(email: string): string {
  return email.slice(email.lastIndexOf('@') + 1).toLowerCase();
}

/** Trims and lowercases an address (how recipients are stored and compared). */
export function normalizeEmail(email: string): string {
  return email.trim().toLowerCase();
}

/** A string or array of strings as an array; undefined when the value has another shape. */
export function asAddressList(value: unknown): string[] | undefined {
  if (typeof value === 'string') return [value];
  if (Array.isArray(value) && value.every((v) => typeof v === 'string')) return value as string[];
  return undefined;
}

const DOMAIN = /^(?=.{4,253}$)(?:[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z]{2,63}$/;

/** True for a registrable-looking domain name (lowercase letters, digits, hyphens, a TLD). */
export function isDomainName(value: string): boolean {
  return DOMAIN.test(value);
}
