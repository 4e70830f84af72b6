import * as z from '../../platform/core/zod';
import { isDomainName } from '../../platform/mail/addresses';
import { parseRequest } from '../../platform/core/validate';

/** A validated `POST /domains/reply` or `POST /domains/tracking`: the sending domain, or its subdomain, named. */
export interface SubdomainInput {
  domain: string;
}

const MISSING = 'Missing required fields: domain';

/**
 * The body of `POST /domains/reply` and `POST /domains/tracking` (part 7: a missing domain, then an
 * invalid one). A domain that is no string, or blank once trimmed, counts as missing, as does a body
 * that is no object; other fields are ignored. The name is read trimmed, lower-cased and without
 * its trailing dot, and named so in the refusal.
 */
export const subdomainBodySchema = z.object(
  {
    domain: z.string({ error: MISSING }).check(
      z.trim(),
      z.toLowerCase(),
      z.overwrite((value) => value.replace(/\.$/, '')),
      z.refine((value) => value !== '', { error: MISSING, abort: true }),
      z.superRefine((value, ctx) => {
        if (!isDomainName(value)) ctx.issues.push({ code: 'custom', input: value, message: `Invalid domain: ${value}` });
      }),
    ),
  },
  { error: MISSING },
);

/** Validates a `/domains/reply` or `/domains/tracking` body; throws the 400 of part 7. */
export function parseSubdomainRequest(body: unknown): SubdomainInput {
  return { domain: parseRequest(subdomainBodySchema, body ?? {}).domain };
}
