import * as z from '../../platform/core/zod';
import { isEmail } from '../../platform/mail/addresses';
import { parseRequest } from '../../platform/core/validate';

/** A validated `POST /domains/verify-email`: the address, and the sender name (its local part when none is given). */
export interface VerifyEmailInput {
  email: string;
  name: string;
}

const MISSING = 'Missing required fields: email';

/**
 * The body of `POST /domains/verify-email` (part 7: a missing email, then an invalid one). An email
 * that is no string, or blank once trimmed, counts as missing, as does a body that is no object; the
 * address is read trimmed and lower-cased, and named so in the refusal. `name` is optional and never
 * refused: one that is no string, or blank, is read as not given.
 */
export const verifyEmailBodySchema = z.object(
  {
    email: z.string({ error: MISSING }).check(
      z.trim(),
      z.toLowerCase(),
      z.refine((value) => value !== '', { error: MISSING, abort: true }),
      z.superRefine((value, ctx) => {
        if (!isEmail(value)) ctx.issues.push({ code: 'custom', input: value, message: `Invalid email: ${value}` });
      }),
    ),
    // Shown as a string; any other value is read as not given (z.catch would do the same for 9 KB of bundle).
    name: z.optional(z.unknown().check(z.meta({ type: 'string' }))),
  },
  { error: MISSING },
);

/** A body the schema accepted, as the verification takes it: the name given, else the address's local part. */
export function toVerifyEmail({ email, name }: z.output<typeof verifyEmailBodySchema>): VerifyEmailInput {
  return { email, name: (typeof name === 'string' && name.trim()) || email.split('@')[0] };
}

/** Validates a `/domains/verify-email` body; throws the 400 of part 7. */
export function parseVerifyEmailRequest(body: unknown): VerifyEmailInput {
  return toVerifyEmail(parseRequest(verifyEmailBodySchema, body ?? {}));
}
