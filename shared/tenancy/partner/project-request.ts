import * as z from '../../platform/core/zod';
import { AppError } from '../../platform/core/errors';
import { isDomainName } from '../../platform/mail/addresses';
import { isEmail } from '../../platform/mail/addresses';
import { ENVIRONMENT_PATTERN } from '../../mail-pipeline';
import { parseRequest, refusedAs } from '../../platform/core/validate';

/** Partner error: the message plus the stable code partner bodies repeat as `code` and `error_code`. */
export const partnerError = (status: number, code: string, message: string, extra?: Record<string, unknown>) => new AppError(status, message, code, extra);

/** How partner routes refuse a body or query: 400 INVALID_INPUT with the first problem (a route's `refuse`). */
export const invalidInput = (message: string) => partnerError(400, 'INVALID_INPUT', message);
const invalid = invalidInput;

/** A partner body schema as its route takes it: no body at all reads as `{}`, refused for what it lacks (MISSING_NAME...). */
export const orEmptyBody = <S extends z.ZodMiniType>(schema: S) => z.prefault(schema, () => ({}) as z.input<S>);
/** True for an IANA time zone name this runtime knows. */
export function isTimeZone(value: string): boolean {
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: value });
    return value.includes('/') || value === 'UTC';
  } catch {
    return false;
  }
}

export interface SenderInput {
  name: string;
  email: string;
}

export interface CreateProjectInput {
  name: string;
  timezone?: string;
  country?: string;
  externalKey?: string;
  domain?: string;
  sender?: SenderInput;
}

/** A refusal: INVALID_INPUT unless it names a code of its own (4.13). */
type Problem = { message: string; code?: string } | undefined;

const BODY = 'Request body must be a JSON object';
const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
/** A string field trimmed; anything else reads as empty. */
const text = (v: unknown) => (typeof v === 'string' ? v.trim() : '');
const emailOf = (v: unknown) => text(v).toLowerCase();
const domainOf = (v: unknown) => text(v).toLowerCase().replace(/\.$/, '');
/** Absent, null and '' mean "not given" for the optional fields of a new project. */
const given = (v: unknown) => v != null && v !== '';

/**
 * The partner rules as one check over the body, once it is an object, in the spec's order: the first
 * problem is pushed with its partner code (MISSING_NAME, INVALID_TIMEZONE...), read by parseRequest.
 * The field schemas beside it describe the body to the OpenAPI document; the check refuses whatever
 * they would (so a field's own issue never answers first), in the order the hand-written parsers had.
 */
const partnerRules = (first: (b: Record<string, unknown>) => Problem) =>
  z.superRefine(
    (b: Record<string, unknown>, ctx) => {
      const problem = first(b);
      if (problem) ctx.issues.push({ code: 'custom', input: b, message: problem.message, ...(problem.code ? { params: refusedAs(problem.code) } : {}) });
    },
    { when: ({ value }) => isObject(value) },
  );

const timezoneProblem = (v: unknown): Problem =>
  typeof v !== 'string' || !isTimeZone(v) ? { message: `timezone must be an IANA name such as Europe/Paris (got ${String(v).slice(0, 100)})`, code: 'INVALID_TIMEZONE' } : undefined;
const countryProblem = (v: unknown): Problem => (typeof v !== 'string' || !/^[A-Za-z]{2}$/.test(v) ? { message: 'country must be a two-letter ISO 3166 code', code: 'INVALID_COUNTRY' } : undefined);
const domainProblem = (v: unknown): Problem => (isDomainName(domainOf(v)) ? undefined : { message: `Invalid domain: ${String(v)}` });

function urlProblem(value: unknown, field: string): Problem {
  if (typeof value !== 'string' || !URL.canParse(value)) return { message: `${field} must be a URL` };
  const { protocol } = new URL(value);
  return protocol !== 'https:' && protocol !== 'http:' ? { message: `${field} must be an http or https URL` } : undefined;
}

function nestedSenderProblem(value: unknown, domain: string): Problem {
  if (!isObject(value)) return { message: 'sender must be an object {name, email}' };
  const email = emailOf(value.email);
  if (!email || !text(value.name)) return { message: 'sender needs name and email' };
  if (!isEmail(email)) return { message: `Invalid sender email: ${email}` };
  if (!email.endsWith(`@${domain}`)) return { message: `sender email must end in @${domain}`, code: 'SENDER_DOMAIN_MISMATCH' };
}

function environmentsProblem(value: unknown): Problem {
  if (value === null) return undefined;
  if (!isObject(value)) return { message: 'inbound_webhook_environments must be an object of environment name to URL' };
  for (const [env, url] of Object.entries(value)) {
    if (!ENVIRONMENT_PATTERN.test(env) || env.length > 64) return { message: `Environment name ${env} must match [a-zA-Z0-9_.-] and be at most 64 characters` };
    const problem = urlProblem(url, `inbound_webhook_environments.${env}`);
    if (problem) return problem;
  }
}

const senderSchema = z.object({ name: z.string(), email: z.string() });
const httpUrl = z.string().check(z.url({ protocol: /^https?$/ }));
const nullableText = z.nullish(z.string());

/** `POST /v1/partner/projects` (4.13): a project, optionally with its domain and its sender (both or neither). */
export const createProjectBodySchema = z
  .object(
    {
      name: z.string().check(z.minLength(1)),
      timezone: nullableText,
      country: nullableText,
      external_key: z.nullish(z.string().check(z.minLength(1), z.maxLength(256))),
      domain: nullableText,
      sender: z.nullish(senderSchema),
    },
    { error: BODY },
  )
  .check(
    partnerRules((b) => {
      if (!text(b.name)) return { message: 'name is required', code: 'MISSING_NAME' };
      const problem = (given(b.timezone) ? timezoneProblem(b.timezone) : undefined) ?? (given(b.country) ? countryProblem(b.country) : undefined);
      if (problem) return problem;
      if (b.external_key != null && (typeof b.external_key !== 'string' || !b.external_key.trim() || b.external_key.length > 256)) {
        return { message: 'external_key must be a string of 1 to 256 characters' };
      }
      const hasDomain = given(b.domain);
      const hasSender = b.sender != null;
      if (hasDomain && !hasSender) return { message: 'sender is required when domain is given', code: 'SENDER_REQUIRED_FOR_DOMAIN' };
      if (hasSender && !hasDomain) return { message: 'domain is required when sender is given', code: 'DOMAIN_REQUIRED_FOR_SENDER' };
      if (hasDomain) return domainProblem(b.domain) ?? nestedSenderProblem(b.sender, domainOf(b.domain));
    }),
  );

/** A `POST /v1/partner/projects` body its schema accepted, as the service takes it: trimmed, the country uppercased. */
export function toCreateProject(b: z.output<typeof createProjectBodySchema>): CreateProjectInput {
  const out: CreateProjectInput = { name: text(b.name), timezone: given(b.timezone) ? b.timezone! : undefined, country: given(b.country) ? b.country!.toUpperCase() : undefined };
  if (b.external_key != null) out.externalKey = b.external_key.trim();
  if (given(b.domain)) {
    out.domain = domainOf(b.domain);
    out.sender = { name: text(b.sender!.name), email: emailOf(b.sender!.email) };
  }
  return out;
}

/** Validates `POST /v1/partner/projects` (4.13, part 7). */
export function parseCreateProject(body: unknown): CreateProjectInput {
  return toCreateProject(parseRequest(createProjectBodySchema, body ?? {}, invalid));
}

/** `POST /v1/partner/projects/{id}/domains`: `domain` and its sender, nested (loose sender fields are refused). */
export const domainOnboardingBodySchema = z
  .object({ domain: z.string(), sender: senderSchema }, { error: BODY })
  .check(
    partnerRules((b) => {
      if (!given(b.domain)) return { message: 'domain is required' };
      const problem = domainProblem(b.domain);
      if (problem) return problem;
      if (b.sender == null) return { message: 'sender is required: a nested object {name, email}, not loose sender fields', code: 'SENDER_REQUIRED_FOR_DOMAIN' };
      return nestedSenderProblem(b.sender, domainOf(b.domain));
    }),
  );

/** An accepted `POST /v1/partner/projects/{id}/domains` body: the domain and its sender, normalised. */
export function toDomainOnboarding(b: z.output<typeof domainOnboardingBodySchema>): { domain: string; sender: SenderInput } {
  return { domain: domainOf(b.domain), sender: { name: text(b.sender.name), email: emailOf(b.sender.email) } };
}

/** Validates the body of `POST /v1/partner/projects/{id}/domains`: `domain` and a nested `sender`. */
export function parseDomainOnboarding(body: unknown): { domain: string; sender: SenderInput } {
  return toDomainOnboarding(parseRequest(domainOnboardingBodySchema, body ?? {}, invalid));
}

/** Where a sender's fields are read: the nested `sender` object when there is one, else the body itself. */
const senderSource = (b: Record<string, unknown>) => (b.sender != null && typeof b.sender === 'object' ? (b.sender as Record<string, unknown>) : b);
// Which of the two forms is read depends on the other: the form not read may hold anything.
const readIfUsed = (type: 'string' | 'object') => z.optional(z.unknown().check(z.meta({ type })));

/** `POST /v1/partner/projects/{id}/senders`: `name` and `email`, loose or nested under `sender`. */
export const senderCreationBodySchema = z
  .looseObject(
    {
      name: readIfUsed('string'),
      email: readIfUsed('string'),
      sender: z.optional(z.unknown().check(z.meta({ type: 'object', properties: { name: { type: 'string' }, email: { type: 'string' } } }))),
      allow_unauthenticated: z.nullish(z.boolean()),
    },
    { error: BODY },
  )
  .check(
    partnerRules((b) => {
      const source = senderSource(b);
      const email = emailOf(source.email);
      if (!email || !text(source.name)) return { message: 'name and email are required' };
      if (!isEmail(email)) return { message: `Invalid email: ${email}` };
      if (b.allow_unauthenticated != null && typeof b.allow_unauthenticated !== 'boolean') return { message: 'allow_unauthenticated must be a boolean' };
    }),
  );

/** An accepted `POST /v1/partner/projects/{id}/senders` body: name and email from the form it used. */
export function toSenderCreation(b: z.output<typeof senderCreationBodySchema>): SenderInput & { allowUnauthenticated: boolean } {
  const source = senderSource(b);
  return { name: text(source.name), email: emailOf(source.email), allowUnauthenticated: b.allow_unauthenticated === true };
}

/** Validates `POST /v1/partner/projects/{id}/senders`: name and email, loose or nested under `sender`. */
export function parseSenderCreation(body: unknown): SenderInput & { allowUnauthenticated: boolean } {
  return toSenderCreation(parseRequest(senderCreationBodySchema, body ?? {}, invalid));
}

/** Fields a PATCH may change; anything else is ignored. */
export const PATCHABLE_FIELDS = [
  'name',
  'timezone',
  'country',
  'webhook_url',
  'webhook_url_dev',
  'inbound_webhook_url',
  'inbound_webhook_url_dev',
  'inbound_webhook_environments',
] as const;

// null clears a field; '' is no value at all, refused like any other invalid one (a URL's '' clears it).
const clearableUrl = z.nullish(z.union([httpUrl, z.literal('')]));

/** `PATCH /v1/partner/projects/{id}`: one or more of PATCHABLE_FIELDS; null clears a field. */
export const projectPatchBodySchema = z
  .object(
    {
      name: z.optional(z.string().check(z.minLength(1))),
      timezone: nullableText,
      country: z.nullish(z.string().check(z.regex(/^[A-Za-z]{2}$/))),
      webhook_url: clearableUrl,
      webhook_url_dev: clearableUrl,
      inbound_webhook_url: clearableUrl,
      inbound_webhook_url_dev: clearableUrl,
      // The names' rule is the check's: a record whose key schema refused one would drop it from what the check reads.
      inbound_webhook_environments: z.nullish(z.record(z.string().check(z.meta({ pattern: ENVIRONMENT_PATTERN.source, maxLength: 64 })), httpUrl)),
    },
    { error: BODY },
  )
  .check(
    partnerRules((b) => {
      let changes = 0;
      for (const field of PATCHABLE_FIELDS) {
        if (!(field in b)) continue;
        changes++;
        const value = b[field];
        const problem =
          field === 'name' ? (text(value) ? undefined : { message: 'name cannot be empty', code: 'MISSING_NAME' })
          : field === 'timezone' ? (value === null ? undefined : timezoneProblem(value))
          : field === 'country' ? (value === null ? undefined : countryProblem(value))
          : field === 'inbound_webhook_environments' ? environmentsProblem(value)
          : value === null || value === '' ? undefined
          : urlProblem(value, field);
        if (problem) return problem;
      }
      if (changes === 0) return { message: `No recognised field to change; send one or more of ${PATCHABLE_FIELDS.join(', ')}`, code: 'EMPTY_PATCH' };
    }),
  );

/** An accepted `PATCH /v1/partner/projects/{id}` body: only the sent, recognised fields, as stored. */
export function toProjectPatch(patch: z.output<typeof projectPatchBodySchema>): Record<string, unknown> {
  const b: Record<string, unknown> = patch;
  const fields: Record<string, unknown> = {};
  for (const field of PATCHABLE_FIELDS) {
    if (!(field in b)) continue;
    const value = b[field];
    if (field === 'name') fields.name = text(value);
    else if (field === 'timezone') fields.timezone = value;
    else if (field === 'country') fields.country = value === null ? null : (value as string).toUpperCase();
    else if (field === 'inbound_webhook_environments') fields.inbound_webhook_environments = value === null ? {} : { ...(value as Record<string, string>) };
    else fields[field] = value === '' ? null : value;
  }
  return fields;
}

/** Validates `PATCH /v1/partner/projects/{id}`: only the sent, recognised fields; none is EMPTY_PATCH. */
export function parseProjectPatch(body: unknown): Record<string, unknown> {
  return toProjectPatch(parseRequest(projectPatchBodySchema, body ?? {}, invalid));
}

/** `POST /v1/partner/projects/{id}/api-key/rotate`: which key, live unless `mode` says test. */
export const keyRotationBodySchema = z.object(
  { mode: z.nullish(z.enum(['live', 'test'], { error: 'mode must be live or test' })) },
  { error: BODY },
);

const isoDate = (name: string) =>
  z.optional(z.string().check(z.refine((v) => !v || !Number.isNaN(new Date(v).getTime()), { message: `${name} must be an ISO 8601 date` })));

/** `GET /v1/partner/projects/{id}/stats`: the period's ends as ISO 8601 dates ('' reads as absent); `until` is checked first. */
export const statsQuerySchema = z.object({ until: isoDate('until'), since: isoDate('since') });
