import type { Needs } from '../../platform/core/dependencies';
import { logger } from '../../platform/core/logger';
import type { DnsRecord, SendingDomain } from './domain';

/**
 * Domain Connect discovery (https://www.domainconnect.org/, draft-ietf-dconn-domainconnect): a DNS
 * provider that supports it publishes TXT `_domainconnect.<domain>` holding the host (and path
 * prefix) of its API; `GET <host>/v2/<domain>/settings` then describes the provider, including
 * `urlSyncUX`, the base of the synchronous flow where the user applies our template with one click.
 *
 * Our template (provider `DOMAIN_CONNECT_PROVIDER_ID`, service `DOMAIN_CONNECT_SERVICE_ID`, onboarded
 * with each DNS provider) creates the 8 records of part 2 from these variables:
 * `dkim1`..`dkim3` (DKIM tokens: `%dkimN%._domainkey` CNAME `%dkimN%.<dkim host>`), `verification`
 * (the provider verification TXT), `spfhost` (SPF include host), `rua` (DMARC report address, without
 * `mailto:`) and `feedbackhost` (MX of the `send` MAIL FROM subdomain).
 *
 * Anything short of a usable answer (no TXT, a DNS or HTTP failure, a body that is not the settings
 * JSON, no urlSyncUX, a provider that says it lacks our template) is `{ supported: false }`: the
 * user then copies the records by hand, which always works.
 */
export interface DomainConnectResult {
  supported: boolean;
  provider_name?: string;
  apply_url?: string;
}

/** Settings are a small JSON document; anything slower or bigger is not worth waiting for. */
const LIMITS = { maxBytes: 64 * 1024, timeoutMs: 5000 };

/** `host[:port][/path]`: what the `_domainconnect` TXT may hold (no scheme, no query). */
const API_HOST = /^[a-z0-9.-]+(?::\d{1,5})?(?:\/[\w\-.~%/]*)?$/i;

interface Settings {
  providerId?: string;
  providerName?: string;
  providerDisplayName?: string;
  urlSyncUX?: string;
  urlAPI?: string;
}

const UNSUPPORTED: DomainConnectResult = { supported: false };

/** Discovers whether the domain's DNS provider supports Domain Connect, and the URL applying our records. */
export async function discoverDomainConnect(deps: Needs<'config' | 'fetcher' | 'dns'>, domain: SendingDomain): Promise<DomainConnectResult> {
  const scheme = deps.config.DOMAIN_CONNECT_SCHEME;
  const variables = templateVariables(domain.dns_records);
  if (!variables) return UNSUPPORTED;

  const host = await apiHost(deps, domain.domain);
  if (!host) return UNSUPPORTED;

  const settings = await fetchJson<Settings>(deps, `${scheme}://${host}/v2/${domain.domain}/settings`);
  const syncUx = settings && httpUrl(settings.urlSyncUX, scheme);
  if (!settings || !syncUx) return UNSUPPORTED;

  const templatePath = `/v2/domainTemplates/providers/${encodeURIComponent(deps.config.DOMAIN_CONNECT_PROVIDER_ID)}/services/${encodeURIComponent(deps.config.DOMAIN_CONNECT_SERVICE_ID)}`;
  // Providers exposing the REST API answer 2xx when our template is onboarded, 404 when not; an
  // apply URL for a template the provider lacks would only show the user an error page.
  const api = httpUrl(settings.urlAPI, scheme);
  if (api && !(await reachable(deps, `${api}${templatePath}`))) return UNSUPPORTED;

  const query = new URLSearchParams({ domain: domain.domain, ...variables });
  return {
    supported: true,
    provider_name: settings.providerDisplayName || settings.providerName || settings.providerId,
    apply_url: `${syncUx}${templatePath}/apply?${query.toString()}`,
  };
}

/** The provider API host from TXT `_domainconnect.<domain>`, or undefined. */
async function apiHost(deps: Needs<'dns'>, domain: string): Promise<string | undefined> {
  try {
    const txt = await deps.dns.resolveTxt(`_domainconnect.${domain}`);
    // Some providers publish it with a scheme or a trailing slash; the protocol says bare host/path.
    const host = txt.map((t) => t.trim().replace(/^https?:\/\//i, '').replace(/\/+$/, '')).find((t) => API_HOST.test(t));
    return host;
  } catch (error) {
    logger.info('Domain Connect TXT lookup failed', { domain, error: (error as Error).message });
    return undefined;
  }
}

/** The parsed JSON object at `url`, or undefined for any failure. */
async function fetchJson<T>(deps: Needs<'fetcher'>, url: string): Promise<T | undefined> {
  try {
    const { body } = await deps.fetcher.fetch(url, LIMITS);
    const parsed: unknown = JSON.parse(body.toString('utf8'));
    return parsed && typeof parsed === 'object' && !Array.isArray(parsed) ? (parsed as T) : undefined;
  } catch (error) {
    logger.info('Domain Connect settings unavailable', { url, error: (error as Error).message });
    return undefined;
  }
}

/** True when `url` answers 2xx. */
async function reachable(deps: Needs<'fetcher'>, url: string): Promise<boolean> {
  try {
    await deps.fetcher.fetch(url, LIMITS);
    return true;
  } catch {
    return false;
  }
}

/** `value` without a trailing slash when it is an absolute URL of the expected scheme (never a javascript: URL handed to a client). */
function httpUrl(value: unknown, scheme: string): string | undefined {
  if (typeof value !== 'string') return undefined;
  try {
    return new URL(value).protocol === `${scheme}:` ? value.replace(/\/+$/, '') : undefined;
  } catch {
    return undefined;
  }
}

/** The template variables from the stored records, or undefined when one is missing (the template would fail). */
export function templateVariables(records: DnsRecord[]): Record<string, string> | undefined {
  const of = (purpose: DnsRecord['purpose']) => records.filter((r) => r.purpose === purpose);
  const dkim = of('dkim').map((r) => r.name.replace(/\._domainkey$/, ''));
  const verification = of('provider_verification')[0]?.value;
  const spfhost = /include:(\S+)/.exec(of('spf')[0]?.value ?? '')?.[1];
  const rua = /rua=mailto:([^;,\s]+)/i.exec(of('dmarc')[0]?.value ?? '')?.[1];
  const feedbackhost = of('return_path').find((r) => r.record_type === 'MX')?.value.trim().split(/\s+/).pop();
  if (dkim.length !== 3 || !verification || !spfhost || !rua || !feedbackhost) return undefined;
  return { dkim1: dkim[0], dkim2: dkim[1], dkim3: dkim[2], verification, spfhost, rua, feedbackhost };
}
