import { badRequest } from '../errors';
import { asAddressList, isEmail, normalizeEmail } from '../mail/addresses';

/** Field readers shared by the send endpoints' request parsers; each throws a 400 naming the field. */

/** An optional address list (string or array) of at most `max` valid addresses. */
export function optionalList(value: unknown, field: string, max: number, tooMany: string): string[] {
  if (value == null) return [];
  const list = asAddressList(value);
  if (!list) throw badRequest(`${field} must be a string or array of strings`);
  if (list.length > max) throw badRequest(tooMany);
  checkAddresses(field, list);
  return list;
}

/** Throws on the first address of `list` that is not a valid email address. */
export function checkAddresses(field: string, list: string[]): void {
  const bad = list.find((a) => !isEmail(a.trim()));
  if (bad !== undefined) throw badRequest(`Invalid email address in ${field}: ${bad}`);
}

/** An optional string field; '' reads as absent. */
export function optionalString(value: unknown, field: string, maxLength?: number): string | undefined {
  if (value == null) return undefined;
  if (typeof value !== 'string') throw badRequest(`${field} must be a string`);
  if (maxLength !== undefined && value.length > maxLength) throw badRequest(`${field} must be at most ${maxLength} characters`);
  return value === '' ? undefined : value;
}

/** Absent, or a string of nothing but white space. */
export function isBlank(value: unknown): boolean {
  return value == null || (typeof value === 'string' && value.trim() === '');
}

/** Normalised addresses, each once, in their first order. */
export function dedupe(list: string[]): string[] {
  const seen = new Set<string>();
  return list.map(normalizeEmail).filter((a) => (seen.has(a) ? false : (seen.add(a), true)));
}
