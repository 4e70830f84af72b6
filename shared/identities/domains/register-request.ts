import * as z from '../../platform/core/zod';
import { isDomainName } from '../../platform/mail/addresses';
import { parseRequest } from '../../platform/core/validate';

/** A validated `POST /domains/register`. */
export interface RegisterInput {
  domain: string;
  senderName: string;
  senderEmail: string;
  externalKey?: string;
}

const MISSING = 'Missing required fields: domain, sender_name, sender_email';

/** A string field trimmed; anything else reads as absent. */
const text = (value: unknown) => (typeof value === 'string' ? value.trim() : '');
const domainOf = (value: unknown) => text(value).toLowerCase().replace(/\.$/, '');

/**
 * The body of `POST /domains/register` (part 7: missing fields, invalid domain, a sender outside
 * the domain, in that order). A field that is not a string counts as missing, as does a body that
 * is no object.
 */
export const registerDomainBodySchema = z
  .object(
    {
      domain: z.string({ error: MISSING }),
      sender_name: z.string({ error: MISSING }),
      sender_email: z.string({ error: MISSING }),
      external_key: z.nullish(z.string({ error: 'external_key must be a string' })),
    },
    { error: MISSING },
  )
  .check(
    z.superRefine(
      (b: Record<string, unknown>, ctx) => {
        const fail = (message: string) => void ctx.issues.push({ code: 'custom', input: b, message });
        const domain = domainOf(b.domain);
        const senderEmail = text(b.sender_email).toLowerCase();
        if (!domain || !text(b.sender_name) || !senderEmail) return fail(MISSING);
        if (!isDomainName(domain)) return fail(`Invalid domain: ${domain}`);
        if (!senderEmail.endsWith(`@${domain}`) || senderEmail.length === domain.length + 1) return fail(`sender_email must end in @${domain}`);
      },
      { when: ({ value }) => typeof value === 'object' && value !== null && !Array.isArray(value) },
    ),
  );

/** A body the schema accepted, as the registration takes it: the names trimmed, the domain and address lower-cased. */
export function toRegisterInput(b: z.output<typeof registerDomainBodySchema>): RegisterInput {
  return { domain: domainOf(b.domain), senderName: text(b.sender_name), senderEmail: text(b.sender_email).toLowerCase(), externalKey: b.external_key || undefined };
}

/** Validates a `/domains/register` body; throws the 400 of part 7. */
export function parseRegisterRequest(body: unknown): RegisterInput {
  return toRegisterInput(parseRequest(registerDomainBodySchema, body ?? {}));
}
