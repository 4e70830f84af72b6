import { badRequest } from '../errors';
import { isEmail, normalizeEmail } from '../mail/addresses';

/** Addresses per bulk call. */
export const BULK_LIMIT = 1000;
/** The reasons an entry is on the list, as `GET /v1/suppressions?reason=` filters them. */
export const REASONS = ['bounce', 'complaint', 'unsubscribe', 'manual'];

/** Reads `email` or `emails` from a request body: valid, lowercased, unique, at most BULK_LIMIT. */
export function parseEmails(body: unknown): string[] {
  const b = (body ?? {}) as Record<string, unknown>;
  const raw = b.emails ?? (b.email != null ? [b.email] : undefined);
  if (!Array.isArray(raw) || raw.length === 0) throw badRequest('Missing required fields: email or emails');
  if (raw.length > BULK_LIMIT) throw badRequest(`emails accepts at most ${BULK_LIMIT} addresses`);
  const bad = raw.find((e) => typeof e !== 'string' || !isEmail(e.trim()));
  if (bad !== undefined) throw badRequest(`Invalid email address: ${String(bad)}`);
  return [...new Set(raw.map((e) => normalizeEmail(e as string)))];
}

/** Reads a `POST /v1/suppressions` body: the addresses, and a `description` when it is text. */
export function parseAddSuppressions(body: unknown): { emails: string[]; description: string | null } {
  const emails = parseEmails(body);
  const description = typeof (body as { description?: unknown })?.description === 'string' ? (body as { description: string }).description : null;
  return { emails, description };
}

/** Reads the list's `reason` filter: absent, or one of REASONS. */
export function parseReasonFilter(reason: string | undefined): string | undefined {
  if (reason && !REASONS.includes(reason)) throw badRequest(`reason must be one of ${REASONS.join(', ')}`);
  return reason;
}
