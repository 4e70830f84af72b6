import { AppError, badRequest } from '../errors';
import { isDomainName } from '../mail/addresses';
import { isEmail } from '../mail/addresses';
import { ENVIRONMENT_PATTERN } from '../sending/limits';

/** Partner error: the message plus the stable code partner bodies repeat as `code` and `error_code`. */
export const partnerError = (status: number, code: string, message: string, extra?: Record<string, unknown>) => new AppError(status, message, code, extra);

const invalid = (message: string) => partnerError(400, 'INVALID_INPUT', message);

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

/** Validates `POST /v1/partner/projects` (4.13, part 7). */
export function parseCreateProject(body: unknown): CreateProjectInput {
  const b = asObject(body);
  const name = typeof b.name === 'string' ? b.name.trim() : '';
  if (!name) throw partnerError(400, 'MISSING_NAME', 'name is required');
  const out: CreateProjectInput = { name, timezone: optionalTimezone(b.timezone), country: optionalCountry(b.country) };
  if (b.external_key != null) {
    if (typeof b.external_key !== 'string' || !b.external_key.trim() || b.external_key.length > 256) throw invalid('external_key must be a string of 1 to 256 characters');
    out.externalKey = b.external_key.trim();
  }
  const hasDomain = b.domain != null && b.domain !== '';
  const hasSender = b.sender != null;
  if (hasDomain && !hasSender) throw partnerError(400, 'SENDER_REQUIRED_FOR_DOMAIN', 'sender is required when domain is given');
  if (hasSender && !hasDomain) throw partnerError(400, 'DOMAIN_REQUIRED_FOR_SENDER', 'domain is required when sender is given');
  if (hasDomain) {
    out.domain = parseDomain(b.domain);
    out.sender = parseNestedSender(b.sender, out.domain);
  }
  return out;
}

/** Validates the body of `POST /v1/partner/projects/{id}/domains`: `domain` and a nested `sender`. */
export function parseDomainOnboarding(body: unknown): { domain: string; sender: SenderInput } {
  const b = asObject(body);
  if (b.domain == null || b.domain === '') throw invalid('domain is required');
  const domain = parseDomain(b.domain);
  if (b.sender == null) {
    throw partnerError(400, 'SENDER_REQUIRED_FOR_DOMAIN', 'sender is required: a nested object {name, email}, not loose sender fields');
  }
  return { domain, sender: parseNestedSender(b.sender, domain) };
}

/** Validates `POST /v1/partner/projects/{id}/senders`: name and email, loose or nested under `sender`. */
export function parseSenderCreation(body: unknown): SenderInput & { allowUnauthenticated: boolean } {
  const b = asObject(body);
  const source = b.sender != null && typeof b.sender === 'object' ? (b.sender as Record<string, unknown>) : b;
  const email = typeof source.email === 'string' ? source.email.trim().toLowerCase() : '';
  const name = typeof source.name === 'string' ? source.name.trim() : '';
  if (!email || !name) throw invalid('name and email are required');
  if (!isEmail(email)) throw invalid(`Invalid email: ${email}`);
  if (b.allow_unauthenticated != null && typeof b.allow_unauthenticated !== 'boolean') throw invalid('allow_unauthenticated must be a boolean');
  return { name, email, allowUnauthenticated: b.allow_unauthenticated === true };
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

/** Validates `PATCH /v1/partner/projects/{id}`: only the sent, recognised fields; none is EMPTY_PATCH. */
export function parseProjectPatch(body: unknown): Record<string, unknown> {
  const b = asObject(body);
  const fields: Record<string, unknown> = {};
  for (const field of PATCHABLE_FIELDS) {
    if (!(field in b)) continue;
    const value = b[field];
    switch (field) {
      case 'name':
        if (typeof value !== 'string' || !value.trim()) throw partnerError(400, 'MISSING_NAME', 'name cannot be empty');
        fields.name = value.trim();
        break;
      // null clears a field; '' is no value at all, refused like any other invalid one.
      case 'timezone':
        fields.timezone = value === null ? null : timezoneOf(value);
        break;
      case 'country':
        fields.country = value === null ? null : countryOf(value);
        break;
      case 'inbound_webhook_environments':
        fields.inbound_webhook_environments = parseEnvironments(value);
        break;
      default:
        fields[field] = value === null || value === '' ? null : parseUrl(value, field);
    }
  }
  if (Object.keys(fields).length === 0) {
    throw partnerError(400, 'EMPTY_PATCH', `No recognised field to change; send one or more of ${PATCHABLE_FIELDS.join(', ')}`);
  }
  return fields;
}

function parseEnvironments(value: unknown): Record<string, string> {
  if (value === null) return {};
  if (typeof value !== 'object' || Array.isArray(value)) throw invalid('inbound_webhook_environments must be an object of environment name to URL');
  const out: Record<string, string> = {};
  for (const [env, url] of Object.entries(value as Record<string, unknown>)) {
    if (!ENVIRONMENT_PATTERN.test(env) || env.length > 64) throw invalid(`Environment name ${env} must match [a-zA-Z0-9_.-] and be at most 64 characters`);
    out[env] = parseUrl(url, `inbound_webhook_environments.${env}`);
  }
  return out;
}

function parseUrl(value: unknown, field: string): string {
  if (typeof value !== 'string') throw invalid(`${field} must be a URL`);
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw invalid(`${field} must be a URL`);
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') throw invalid(`${field} must be an http or https URL`);
  return value;
}

function parseDomain(value: unknown): string {
  const domain = typeof value === 'string' ? value.trim().toLowerCase().replace(/\.$/, '') : '';
  if (!isDomainName(domain)) throw invalid(`Invalid domain: ${String(value)}`);
  return domain;
}

function parseNestedSender(value: unknown, domain: string): SenderInput {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) throw invalid('sender must be an object {name, email}');
  const s = value as Record<string, unknown>;
  const email = typeof s.email === 'string' ? s.email.trim().toLowerCase() : '';
  const name = typeof s.name === 'string' ? s.name.trim() : '';
  if (!email || !name) throw invalid('sender needs name and email');
  if (!isEmail(email)) throw invalid(`Invalid sender email: ${email}`);
  if (!email.endsWith(`@${domain}`)) throw partnerError(400, 'SENDER_DOMAIN_MISMATCH', `sender email must end in @${domain}`);
  return { name, email };
}

function optionalTimezone(value: unknown): string | undefined {
  return value == null || value === '' ? undefined : timezoneOf(value);
}

function timezoneOf(value: unknown): string {
  if (typeof value !== 'string' || !isTimeZone(value)) throw partnerError(400, 'INVALID_TIMEZONE', `timezone must be an IANA name such as Europe/Paris (got ${String(value).slice(0, 100)})`);
  return value;
}

function optionalCountry(value: unknown): string | undefined {
  return value == null || value === '' ? undefined : countryOf(value);
}

function countryOf(value: unknown): string {
  if (typeof value !== 'string' || !/^[A-Za-z]{2}$/.test(value)) throw partnerError(400, 'INVALID_COUNTRY', 'country must be a two-letter ISO 3166 code');
  return value.toUpperCase();
}

function asObject(body: unknown): Record<string, unknown> {
  if (body == null) return {};
  if (typeof body !== 'object' || Array.isArray(body)) throw badRequest('Request body must be a JSON object', 'INVALID_INPUT');
  return body as Record<string, unknown>;
}
