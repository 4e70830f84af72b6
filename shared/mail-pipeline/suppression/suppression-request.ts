import * as z from '../../platform/core/zod';
import { isEmail, normalizeEmail } from '../../platform/mail/addresses';
import { parseRequest } from '../../platform/core/validate';

/** Addresses per bulk call. */
export const BULK_LIMIT = 1000;
/** The reasons an entry is on the list, as `GET /v1/suppressions?reason=` filters them. */
export const REASONS = ['bounce', 'complaint', 'unsubscribe', 'manual'];

const MISSING = 'Missing required fields: email or emails';

type Ctx = z.core.$RefinementCtx<unknown>;
const fail = (ctx: Ctx, value: unknown, message: string) => void ctx.issues.push({ code: 'custom', message, input: value });
const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

/** A refused value as its message names it; an object whose own `toString` is no function names itself as `[object Object]` rather than throwing. */
function asText(value: unknown): string {
  try {
    return String(value);
  } catch {
    return Object.prototype.toString.call(value);
  }
}

/** The addresses a body names: `emails`, else the one `email`. */
const namedAddresses = (b: Record<string, unknown>): unknown => b.emails ?? (b.email != null ? [b.email] : undefined);

/** An address of `emails` or the one `email`; checked by the body's own check, which names the first bad one. */
const address = z.unknown();
z.globalRegistry.add(address, { type: 'string', format: 'email' });
const addressList = z.array(address, { error: MISSING });
z.globalRegistry.add(addressList, { minItems: 1, maxItems: BULK_LIMIT });

/** `emails` (up to 1,000) or one `email`; a body that is no object names none. */
const emailsShape = { emails: z.nullish(addressList), email: z.nullish(address) };
/** The body's own check, run even when `emails` is no list (then it names none): the first problem of the addresses. */
const addressChecks = z.superRefine(
  (b: Record<string, unknown>, ctx: Ctx) => {
    const raw = namedAddresses(b);
    if (!Array.isArray(raw) || raw.length === 0) return fail(ctx, b, MISSING);
    if (raw.length > BULK_LIMIT) return fail(ctx, b, `emails accepts at most ${BULK_LIMIT} addresses`);
    const bad = raw.find((e) => typeof e !== 'string' || !isEmail(e.trim()));
    if (bad !== undefined) fail(ctx, b, `Invalid email address: ${asText(bad)}`);
  },
  { when: ({ value }) => isObject(value) },
);

/** The body of `POST /v1/suppressions/remove`: the addresses to take off the list. */
export const suppressionEmailsBodySchema = z.object(emailsShape, { error: MISSING }).check(addressChecks);

/** Read only when it is text (anything else is no description, as before). */
const description = z.optional(z.unknown());
z.globalRegistry.add(description, { type: 'string', description: 'Why the addresses were added; read only when a string' });

/** The body of `POST /v1/suppressions`: the addresses to add, and an optional description. */
export const addSuppressionsBodySchema = z.object({ ...emailsShape, description }, { error: MISSING }).check(addressChecks);

/** The list's query: `reason` filters by one of REASONS, `search` by the start of the address (page and per_page are read by shared/platform/http/pagination). */
export const suppressionListQuerySchema = z.object({
  reason: z.optional(z.string().check(z.refine((v) => v === '' || REASONS.includes(v), `reason must be one of ${REASONS.join(', ')}`))),
  search: z.optional(
    z.string().check(
      z.refine((v) => v.trim().length <= 254, 'search must be at most 254 characters'),
      z.meta({ description: 'Addresses starting with this text (case-insensitive, trimmed): `bob@` or `bob@example.com`' }),
    ),
  ),
});

/** Valid, lowercased, each once. */
const uniqueAddresses = (b: Record<string, unknown>): string[] => [...new Set((namedAddresses(b) as string[]).map(normalizeEmail))];

/** A `POST /v1/suppressions/remove` body its schema accepted. */
export type SuppressionEmailsBody = z.output<typeof suppressionEmailsBodySchema>;
/** A `POST /v1/suppressions` body its schema accepted. */
export type AddSuppressionsBody = z.output<typeof addSuppressionsBodySchema>;

/** The addresses an accepted body names: lowercased, each once. */
export function toSuppressionEmails(b: SuppressionEmailsBody): string[] {
  return uniqueAddresses(b);
}

/** What an accepted `POST /v1/suppressions` body adds: the addresses, and a `description` when it is text. */
export function toAddSuppressions(b: AddSuppressionsBody): { emails: string[]; description: string | null } {
  return { emails: uniqueAddresses(b), description: typeof b.description === 'string' ? b.description : null };
}

/** Reads `email` or `emails` from a request body: valid, lowercased, unique, at most BULK_LIMIT. */
export function parseEmails(body: unknown): string[] {
  return toSuppressionEmails(parseRequest(suppressionEmailsBodySchema, body ?? {}));
}

/** Reads a `POST /v1/suppressions` body: the addresses, and a `description` when it is text. */
export function parseAddSuppressions(body: unknown): { emails: string[]; description: string | null } {
  return toAddSuppressions(parseRequest(addSuppressionsBodySchema, body ?? {}));
}

/** The list's `search`, as the addresses are kept: trimmed and lowercased; undefined when empty. */
export function searchPrefix(search: string | undefined): string | undefined {
  const prefix = search?.trim().toLowerCase();
  return prefix ? prefix : undefined;
}

/** Reads the list's `reason` filter: absent, or one of REASONS. */
export function parseReasonFilter(reason: string | undefined): string | undefined {
  return parseRequest(suppressionListQuerySchema, { reason }).reason;
}
