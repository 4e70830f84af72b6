import type { Needs } from '../../platform/core/dependencies';
import { logger } from '../../platform/core/logger';
import { knownProvider, providerOfMx, type MailboxProvider } from './mailbox-provider';
import { cacheProviders, cachedProviders, MX_CACHE_SECONDS } from './mailbox-provider-repository';

/**
 * The provider of recipient domains, cheapest first: the known consumer domains, this container's
 * memory (bounded), the table's MX cache (a day), and only then a DNS MX lookup, whose answer is
 * cached in both. A page of recipients costs no lookup for a domain seen within the day.
 */

/** Domains a container keeps in memory; the oldest entry goes first when full. */
const MEMORY_DOMAINS = 10_000;

/** DNS lookups one call makes at most; domains beyond them count as `other` this time (uncached), so a page of unknown domains stays fast. */
export const MAX_LOOKUPS_PER_CALL = 200;

/** Lookups in flight at once. */
const LOOKUP_CONCURRENCY = 16;

const memory = new Map<string, { provider: MailboxProvider; until: number }>();

function remember(domain: string, provider: MailboxProvider, until: number): void {
  if (memory.size >= MEMORY_DOMAINS) memory.delete(memory.keys().next().value as string);
  memory.set(domain, { provider, until });
}

/** Forgets this container's memory (tests). */
export function forgetProviders(): void {
  memory.clear();
}

/** The domains' providers known without the table: known domains and unexpired memory; the rest are returned apart. */
function fromMemory(domains: Iterable<string>, nowMs: number): { found: Map<string, MailboxProvider>; missing: string[] } {
  const found = new Map<string, MailboxProvider>();
  const missing: string[] = [];
  for (const domain of domains) {
    const known = knownProvider(domain);
    const kept = memory.get(domain);
    if (known) found.set(domain, known);
    else if (kept && kept.until > nowMs) found.set(domain, kept.provider);
    else missing.push(domain);
  }
  return { found, missing };
}

/** The provider of each of `domains` (lowercase), looking up by MX what no cache knows (at most MAX_LOOKUPS_PER_CALL). */
export async function providersOf(deps: Needs<'db' | 'dns' | 'clock'>, domains: Iterable<string>): Promise<Map<string, MailboxProvider>> {
  const nowMs = deps.clock.now().getTime();
  const nowSeconds = Math.floor(nowMs / 1000);
  const { found, missing } = fromMemory(new Set(domains), nowMs);
  if (missing.length === 0) return found;
  const stored = await cachedProviders(deps.db, missing, nowSeconds);
  for (const [domain, provider] of stored) {
    found.set(domain, provider);
    remember(domain, provider, nowMs + MX_CACHE_SECONDS * 1000);
  }
  const toLookUp = missing.filter((d) => !stored.has(d));
  const looked = new Map<string, MailboxProvider>();
  const queue = toLookUp.slice(0, MAX_LOOKUPS_PER_CALL);
  await Promise.all(
    Array.from({ length: Math.min(LOOKUP_CONCURRENCY, queue.length) }, async () => {
      for (let domain = queue.shift(); domain !== undefined; domain = queue.shift()) {
        try {
          looked.set(domain, providerOfMx(await deps.dns.resolveMx(domain)));
        } catch (error) {
          // A failed lookup (timeout, SERVFAIL) is not cached: the domain counts as `other` this time only.
          logger.warn('MX lookup failed; the domain is paced as other', { domain, error: (error as Error).message });
        }
      }
    }),
  );
  if (looked.size > 0) await cacheProviders(deps.db, looked, nowSeconds);
  for (const [domain, provider] of looked) remember(domain, provider, nowMs + MX_CACHE_SECONDS * 1000);
  for (const domain of toLookUp) found.set(domain, looked.get(domain) ?? 'other');
  return found;
}

/**
 * The provider of one domain without a DNS lookup (the SES-events worker: the engine cached the
 * domain when it released the mail, a day before at most); `other` when nothing knows it.
 */
export async function cachedProviderOf(deps: Needs<'db' | 'clock'>, domain: string): Promise<MailboxProvider> {
  const nowMs = deps.clock.now().getTime();
  const { found, missing } = fromMemory([domain], nowMs);
  if (missing.length === 0) return found.get(domain)!;
  const stored = await cachedProviders(deps.db, [domain], Math.floor(nowMs / 1000));
  const provider = stored.get(domain) ?? 'other';
  if (stored.has(domain)) remember(domain, provider, nowMs + MX_CACHE_SECONDS * 1000);
  return provider;
}
