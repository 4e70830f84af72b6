import { badRequest } from '../errors';
import { isEmail } from '../mail/addresses';

/** A validated `POST /domains/verify-email`: the address, and the sender name (its local part when none is given). */
export interface VerifyEmailInput {
  email: string;
  name: string;
}

/** Validates a `/domains/verify-email` body; throws the 400 of part 7. */
export function parseVerifyEmailRequest(body: unknown): VerifyEmailInput {
  const b = (body ?? {}) as Record<string, unknown>;
  const email = typeof b.email === 'string' ? b.email.trim().toLowerCase() : '';
  const name = typeof b.name === 'string' && b.name.trim() ? b.name.trim() : email.split('@')[0];
  if (!email) throw badRequest('Missing required fields: email');
  if (!isEmail(email)) throw badRequest(`Invalid email: ${email}`);
  return { email, name };
}
