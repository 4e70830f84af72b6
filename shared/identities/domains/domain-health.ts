import type { Needs } from '../../platform/core/dependencies';
import { dmarcSummaryOf, dmarcWindow } from '../dmarc/dmarc-service';
import { dmarcHealthIssue } from '../dmarc/dmarc-summary';
import { dayOf, hardBounceRate, readDomainCounts } from '../stats/domain-stats';
import type { RecordPurpose, SendingDomain } from './domain';
import { fqdn } from './dns-records';
import { listDomains } from './domain-repository';
import { getProject } from '../../platform/projects/project-repository';
import { projectReputation } from '../reputation/project-reputation';

export type HealthStatus = 'healthy' | 'warning' | 'critical';

/** Percent of permanent bounces at which SES starts reviewing an account, and our early warning. */
export const BOUNCE_CRITICAL_PERCENT = 5;
export const BOUNCE_WARNING_PERCENT = 2.5;

const HEALTH_WINDOW_DAYS = 30;

/**
 * One domain's health from its stored state and its last 30 days of counters, with issues a person
 * can act on; `dmarcIssue` is what its DMARC reports say (a warning), when they say anything.
 */
export function assessDomain(domain: SendingDomain, sent: number, rate: number, dmarcIssue?: string): { status: HealthStatus; issues: string[] } {
  const critical: string[] = [];
  const warning: string[] = [];
  const name = domain.domain;
  const recordStatus = (purpose: RecordPurpose) => domain.dns_records.filter((r) => r.purpose === purpose).map((r) => r.status);
  const dkimVerified = recordStatus('dkim').every((s) => s === 'verified') && domain.details?.dkim_verification === 'SUCCESS';

  if (domain.verification_status === 'failed') {
    critical.push(`Verification failed: SES could not verify ${name}. Check the DKIM CNAME records, then call POST /domains/${name}/recreate if DKIM stays stuck.`);
  } else if (!domain.can_send) {
    critical.push(`Sending is not enabled yet: publish the records of GET /domains/${name}/dns-records, then call POST /domains/${name}/verify.`);
  } else if (!dkimVerified) {
    const names = domain.dns_records.filter((r) => r.purpose === 'dkim').map((r) => fqdn(r.name, name));
    critical.push(`DKIM is not verified, so mail goes out without ${name}'s signature: publish the CNAME records ${names.join(', ')}.`);
  }
  const dmarc = recordStatus('dmarc')[0];
  // The record to publish is the domain's own: with a `rua` only where this deployment receives reports.
  const dmarcValue = domain.dns_records.find((r) => r.purpose === 'dmarc')?.value ?? 'v=DMARC1; p=none';
  if (dmarc === 'mismatch') warning.push(`The TXT record at _dmarc.${name} is not a valid DMARC record: publish "${dmarcValue}".`);
  else if (dmarc !== 'verified') warning.push(`No DMARC record found at _dmarc.${name}: publish the DMARC TXT record (p=none is enough to start).`);
  const spf = recordStatus('spf')[0];
  if (spf === 'mismatch') warning.push(`The SPF record of ${name} does not include the provider: add it to the existing v=spf1 record.`);
  else if (spf !== 'verified') warning.push(`No SPF record found at ${name}: publish the SPF TXT record.`);
  if (domain.can_send && recordStatus('return_path').some((s) => s !== 'verified')) {
    warning.push(`The custom MAIL FROM send.${name} is not verified: publish its MX and TXT records, or bounces are handled under the provider's domain.`);
  }
  if (sent > 0 && rate >= BOUNCE_CRITICAL_PERCENT) {
    critical.push(`Permanent-bounce rate is ${rate}% over the last ${HEALTH_WINDOW_DAYS} days, at or above SES's ${BOUNCE_CRITICAL_PERCENT}% review line: stop sending to addresses that bounce and clean the list.`);
  } else if (sent > 0 && rate >= BOUNCE_WARNING_PERCENT) {
    warning.push(`Permanent-bounce rate is ${rate}% over the last ${HEALTH_WINDOW_DAYS} days, nearing SES's ${BOUNCE_CRITICAL_PERCENT}% review line: check where these addresses come from.`);
  }
  if (dmarcIssue) warning.push(dmarcIssue);
  const status: HealthStatus = critical.length > 0 ? 'critical' : warning.length > 0 ? 'warning' : 'healthy';
  return { status, issues: [...critical, ...warning] };
}

/**
 * `GET /domains/health`: every domain of the project with its status, send count and permanent-bounce
 * rate, and the project's reputation (its rates against SES's thresholds, whether marketing is paused).
 */
export async function domainHealth(deps: Needs<'db' | 'clock' | 'tenants'>, projectId: string) {
  const now = deps.clock.now();
  const from = dayOf(new Date(now.getTime() - (HEALTH_WINDOW_DAYS - 1) * 86_400_000));
  const [domains, project] = await Promise.all([listDomains(deps.db, projectId), getProject(deps.db, projectId)]);
  const data = await Promise.all(
    domains.map(async (d) => {
      const [counts, dmarc] = await Promise.all([
        readDomainCounts(deps.db, projectId, d.domain, from, dayOf(now)),
        dmarcSummaryOf(deps, projectId, d.domain, dmarcWindow(now, HEALTH_WINDOW_DAYS)),
      ]);
      const rate = hardBounceRate(counts);
      const { status, issues } = assessDomain(d, counts.sent, rate, dmarcHealthIssue(dmarc));
      return { domain: d.domain, status, can_send: d.can_send, sent: counts.sent, hard_bounce_rate: rate, issues };
    }),
  );
  const count = (s: HealthStatus) => data.filter((d) => d.status === s).length;
  const reputation = await projectReputation(deps, project ?? { id: projectId });
  return { summary: { total: data.length, healthy: count('healthy'), warning: count('warning'), critical: count('critical') }, data, reputation };
}
