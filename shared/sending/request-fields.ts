import * as z from '../zod';
import { normalizeEmail } from '../mail/addresses';

/** Field pieces shared by the send endpoints' request schemas. */

/** An optional string ('' reads as absent), of at most `maxLength` characters when given. */
export const optionalText = (field: string, maxLength?: number) =>
  z.nullish(
    maxLength === undefined
      ? z.string({ error: `${field} must be a string` })
      : z.string({ error: `${field} must be a string` }).check(z.refine((v) => v.length <= maxLength, `${field} must be at most ${maxLength} characters`)),
  );

/** Absent, or a string of nothing but white space. */
export function isBlank(value: unknown): boolean {
  return value == null || (typeof value === 'string' && value.trim() === '');
}

/** Null, undefined and '' read as absent. */
export const present = <T>(value: T | '' | null | undefined): T | undefined => (value == null || value === '' ? undefined : value);

/** Normalised addresses, each once, in their first order. */
export function dedupe(list: string[]): string[] {
  const seen = new Set<string>();
  return list.map(normalizeEmail).filter((a) => (seen.has(a) ? false : (seen.add(a), true)));
}
