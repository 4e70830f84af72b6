import { accessPatternTable, type AccessPattern, type Aggregate } from '../aggregate-definition';
import { aggregates } from '.';
import { activityAccessPatterns } from './activity';
import { audienceAccessPatterns } from './audience';
import { automationAccessPatterns } from './automation';
import { campaignAccessPatterns } from './campaign';
import { countersAccessPatterns } from './counters';
import { dmarcAccessPatterns } from './dmarc';
import { identitiesAccessPatterns } from './identities';
import { mailAccessPatterns } from './mail';
import { mailboxProviderAccessPatterns } from './mailbox-provider';
import { schedulingAccessPatterns } from './scheduling';
import { templateAccessPatterns } from './template';
import { tenancyAccessPatterns } from './tenancy';

/** The access-pattern rows of every aggregate, by the names of `aggregates`. */
export const accessPatterns: Readonly<Record<string, readonly AccessPattern[]>> = {
  ...tenancyAccessPatterns, ...identitiesAccessPatterns, ...mailAccessPatterns, ...activityAccessPatterns, ...countersAccessPatterns,
  ...templateAccessPatterns, ...schedulingAccessPatterns, ...audienceAccessPatterns, ...campaignAccessPatterns, ...automationAccessPatterns, ...dmarcAccessPatterns,
  ...mailboxProviderAccessPatterns,
};

/** One aggregate's indexes, TTL and transitions, as a line of the document. */
function summary(a: Aggregate): string {
  const parts = [a.indexes.length > 0 ? `indexes ${a.indexes.join(', ')}` : 'no index'];
  for (const t of a.ttl) parts.push(`TTL of its ${t.items} ${t.seconds >= 86_400 ? `${t.seconds / 86_400} d` : `${t.seconds / 3600} h`}`);
  const moves = Object.entries(a.transitions).map(([name, t]) => `${name} (${t.from.join(' | ')} -> ${t.to})`);
  if (moves.length > 0) parts.push(`${a.stateField} transitions: ${moves.join(', ')}`);
  return `- **${a.name}**: ${parts.join('; ')}`;
}

/** docs/access-patterns.md: generated from the definitions, so the table cannot drift from the keys. */
export function accessPatternsDocument(): string {
  return [
    '# Access patterns of the single table',
    '',
    'Generated from shared/platform/store/aggregates/ by `npx tsx scripts/access-patterns.ts`; do not edit by hand (a unit test compares).',
    'Write units (WCU) assume on-demand mode and items under 1 KB unless noted; a conditional write that fails still costs its units.',
    '',
    '## Aggregates',
    '',
    ...Object.values(aggregates).map(summary),
    '',
    '## Keys and costs',
    '',
    accessPatternTable(Object.keys(aggregates).flatMap((name) => accessPatterns[name] ?? [])),
    '',
  ].join('\n');
}
