import type { Needs } from '../../platform/core/dependencies';
import { logger } from '../../platform/core/logger';
import type { DnsResolver } from '../../platform/core/ports';
import type { DnsRecord, RecordStatus, SendingDomain } from './domain';
import { fqdn } from './dns-records';
import { allDomainsPage, getDomain, saveDomain } from './domain-repository';
import { listSubdomains, putSubdomain, statusFromAnswer, type Subdomain, type SubdomainKind } from './subdomains';

/**
 * The DNS sweep of part 3 (every 6 hours): resolves the records the provider does not check for us
 * and moves their status from what DNS answers now. Matching rules:
 *
 * - SPF (TXT at the apex): only TXT strings starting with `v=spf1` are SPF records (RFC 7208 §4.5).
 *   Exactly one SPF record holding our `include:<spf host>` term (host taken from the stored value
 *   `v=spf1 include:<host> ~all`; a `+` qualifier is fine) -> verified. SPF present but without our
 *   include, or several SPF records (a PermError for receivers) -> mismatch. No SPF -> not_set,
 *   even if other TXT records (site verifications) live at the apex.
 * - DMARC (TXT at `_dmarc`): exactly one TXT starting with `v=DMARC1` that has a valid `p=` tag
 *   (none, quarantine or reject: a stricter policy than our p=none is the user's call; their own
 *   rua is fine too) -> verified. TXT at `_dmarc` but no valid DMARC record, or several (RFC 7489
 *   §6.6.3: receivers then apply none) -> mismatch. No TXT -> not_set.
 * - Reply MX (`reply.<domain>`): an MX exchange equal to the stored value (case-insensitive, trailing
 *   dot ignored) -> verified. Tracking CNAME (`track.<domain>`): a target equal to the stored value.
 *
 * A lookup that fails (timeout, SERVFAIL) leaves its records untouched; the next sweep retries.
 * Only spf and dmarc records of a sending domain move: the provider owns the others, and neither
 * verification_status nor can_send depends on SPF or DMARC.
 */

/** What DNS answered for one record; undefined when the lookup failed. */
type Answer = string[] | undefined;

/** DNS answers for a domain's SPF and DMARC records, keyed by record purpose. */
export type SpfDmarcAnswers = Partial<Record<'spf' | 'dmarc', Answer>>;

const SWEPT = ['spf', 'dmarc'] as const;
const isSwept = (r: DnsRecord): r is DnsRecord & { purpose: 'spf' | 'dmarc' } => (SWEPT as readonly string[]).includes(r.purpose);

/** Several domains are resolved at once; each waits on DNS, not on us. */
const CONCURRENCY = 8;

const normalizeHost = (host: string) => host.trim().toLowerCase().replace(/\.$/, '');

/** Status of the SPF record from the TXT strings at the apex. */
export function spfStatus(txt: string[], expectedValue: string): RecordStatus {
  const host = /(?:^|\s)include:(\S+)/i.exec(expectedValue)?.[1] ?? '';
  const spf = txt.filter((t) => /^v=spf1(\s|$)/i.test(t.trim()));
  if (spf.length === 0) return 'not_set';
  if (spf.length > 1) return 'mismatch';
  const terms = spf[0].trim().split(/\s+/).map((t) => t.toLowerCase().replace(/^\+/, ''));
  return terms.includes(`include:${normalizeHost(host)}`) ? 'verified' : 'mismatch';
}

/** Status of the DMARC record from the TXT strings at `_dmarc`. */
export function dmarcStatus(txt: string[]): RecordStatus {
  if (txt.length === 0) return 'not_set';
  const dmarc = txt.filter((t) => /^v\s*=\s*DMARC1\s*(;|$)/i.test(t.trim()));
  if (dmarc.length !== 1) return 'mismatch';
  const tags = new Map(
    dmarc[0].split(';').map((part) => {
      const [tag, ...value] = part.split('=');
      return [tag.trim().toLowerCase(), value.join('=').trim().toLowerCase()] as const;
    }),
  );
  return ['none', 'quarantine', 'reject'].includes(tags.get('p') ?? '') ? 'verified' : 'mismatch';
}

/** The answer of one lookup, or undefined (logged) when the lookup itself failed (timeout, SERVFAIL). */
async function lookup(what: string, name: string, resolve: () => Promise<string[]>): Promise<Answer> {
  try {
    return await resolve();
  } catch (error) {
    logger.warn('DNS lookup failed; record left unchanged', { what, name, error: (error as Error).message });
    return undefined;
  }
}

/** Looks up the SPF and DMARC records of a domain (only those it has). */
export async function lookupSpfAndDmarc(records: DnsRecord[], domain: string, dns: DnsResolver): Promise<SpfDmarcAnswers> {
  const answers: SpfDmarcAnswers = {};
  for (const purpose of SWEPT) {
    const record = records.find((r) => r.purpose === purpose);
    if (!record) continue;
    const name = fqdn(record.name, domain);
    answers[purpose] = await lookup(`${purpose} TXT`, name, () => dns.resolveTxt(name));
  }
  return answers;
}

/** The records with SPF and DMARC moved by the answers; every other record is returned as it was. */
export function applySpfAndDmarc(records: DnsRecord[], answers: SpfDmarcAnswers, at: string): DnsRecord[] {
  return records.map((r) => {
    if (!isSwept(r)) return r;
    const txt = answers[r.purpose];
    if (!txt) return r;
    const status = r.purpose === 'spf' ? spfStatus(txt, r.value) : dmarcStatus(txt);
    return { ...r, status, last_checked_at: at };
  });
}

/** One domain's records after looking up its SPF and DMARC now (pure apart from the DNS lookups). */
export async function sweepDomainRecords(records: DnsRecord[], domain: string, dns: DnsResolver, at: string): Promise<DnsRecord[]> {
  return applySpfAndDmarc(records, await lookupSpfAndDmarc(records, domain, dns), at);
}

/** A subdomain's records and status after looking up its MX (reply) or CNAME (tracking) now. */
export async function sweepSubdomainRecords(sub: Subdomain, dns: DnsResolver, at: string): Promise<Subdomain> {
  const records: DnsRecord[] = [];
  for (const r of sub.records) {
    const name = fqdn(r.name, sub.parent_domain);
    const expected = normalizeHost(r.value);
    const found =
      r.record_type === 'MX'
        ? await lookup('reply MX', name, async () => (await dns.resolveMx(name)).map((mx) => mx.exchange))
        : await lookup('tracking CNAME', name, () => dns.resolveCname(name));
    records.push(found ? { ...r, status: statusFromAnswer(found, (v) => normalizeHost(v) === expected), last_checked_at: at } : r);
  }
  const checked = records.some((r, i) => r !== sub.records[i]);
  return {
    ...sub,
    records,
    status: records.length > 0 && records.every((r) => r.status === 'verified') ? 'verified' : 'pending',
    last_checked_at: checked ? at : sub.last_checked_at,
  };
}

/**
 * Writes the swept records, conditional on the version read. When another writer (a verify call,
 * the provider re-check) got there first, the same answers are applied to a fresh read once; if
 * that loses too, the domain is skipped and the next sweep catches up.
 */
async function saveSwept(deps: Needs<'db'>, current: SendingDomain, answers: SpfDmarcAnswers, at: string): Promise<void> {
  let base: SendingDomain | undefined = current;
  for (let attempt = 0; attempt < 2 && base; attempt++) {
    const next: SendingDomain = { ...base, dns_records: applySpfAndDmarc(base.dns_records, answers, at), version: base.version + 1, updated_at: at };
    if (await saveDomain(deps.db, next, base.version)) return;
    base = attempt === 0 ? await getDomain(deps.db, current.project_id, current.domain, true) : undefined;
  }
  logger.info('Domain changed during the DNS sweep; skipped until the next sweep', { domain: current.domain });
}

/** Sweeps one sending domain; the number of records whose status was decided. */
async function sweepDomain(deps: Needs<'db' | 'dns'>, domain: SendingDomain, at: string): Promise<number> {
  const answers = await lookupSpfAndDmarc(domain.dns_records, domain.domain, deps.dns);
  const decided = Object.values(answers).filter(Boolean).length;
  if (decided > 0) await saveSwept(deps, domain, answers, at);
  return decided;
}

/** Sweeps the reply and tracking subdomains of a project; the number of records decided. */
async function sweepSubdomains(deps: Needs<'db' | 'dns'>, projectId: string, at: string): Promise<number> {
  let decided = 0;
  for (const kind of ['reply', 'tracking'] as SubdomainKind[]) {
    for (const sub of await listSubdomains(deps.db, kind, projectId)) {
      const next = await sweepSubdomainRecords(sub, deps.dns, at);
      const count = next.records.filter((r, i) => r !== sub.records[i]).length;
      if (count === 0) continue;
      await putSubdomain(deps.db, next);
      decided += count;
    }
  }
  return decided;
}

/** Runs `work` over `items`, a few at a time. */
async function inBatches<T>(items: T[], work: (item: T) => Promise<number>): Promise<number> {
  let total = 0;
  for (let i = 0; i < items.length; i += CONCURRENCY) {
    total += (await Promise.all(items.slice(i, i + CONCURRENCY).map(work))).reduce((a, b) => a + b, 0);
  }
  return total;
}

/**
 * The scheduled DNS sweep: every sending domain's SPF and DMARC, then the reply and tracking
 * subdomains of the projects seen. Returns how many sending domains were swept and how many
 * records (SPF, DMARC, reply MX, tracking CNAME) got a status from DNS.
 */
export async function sweepDns(deps: Needs<'db' | 'clock' | 'dns'>): Promise<{ domains: number; records: number }> {
  const at = deps.clock.now().toISOString();
  const projects = new Set<string>();
  let domains = 0;
  let records = 0;
  let start: Record<string, unknown> | undefined;
  do {
    const page = await allDomainsPage(deps.db, start);
    for (const d of page.domains) projects.add(d.project_id);
    domains += page.domains.length;
    records += await inBatches(page.domains, (d) => sweepDomain(deps, d, at));
    start = page.next;
  } while (start);
  records += await inBatches([...projects], (p) => sweepSubdomains(deps, p, at));
  return { domains, records };
}
