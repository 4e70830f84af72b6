import * as z from '../platform/core/zod';
import { normalizeEmail } from '../platform/mail/addresses';
import { ENVIRONMENT_PATTERN, SEND_LIMITS } from './limits';

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

/** The optional `environment` name (pattern and length of part 8); '' reads as absent. */
export const environmentSchema = z.nullish(
  z
    .string({ error: 'environment must match [a-zA-Z0-9_.-] and be at most 64 characters' })
    .check(
      z.refine(
        (v) => v === '' || (ENVIRONMENT_PATTERN.test(v) && v.length <= SEND_LIMITS.environmentMaxLength),
        'environment must match [a-zA-Z0-9_.-] and be at most 64 characters',
      ),
    ),
);
