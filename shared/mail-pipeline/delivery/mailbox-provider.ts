/**
 * Mailbox providers (docs/campaigns.md, "Pacing per mailbox provider"): who hosts a recipient's
 * mailbox, told by its domain (the big consumer domains are known) or by the MX hosts of the domain
 * (suffix rules after KumoMTA's shaping file). Pure: the lookup and its cache are in mx-cache.ts.
 */

/** The providers campaigns are paced for; every other domain is `other`. */
export const MAILBOX_PROVIDERS = ['google', 'microsoft', 'microsoft-365', 'yahoo', 'apple', 'other'] as const;
export type MailboxProvider = (typeof MAILBOX_PROVIDERS)[number];

/** Consumer domains whose provider is known without a lookup. */
const KNOWN_DOMAINS: Readonly<Record<string, MailboxProvider>> = {
  'gmail.com': 'google',
  'googlemail.com': 'google',
  'outlook.com': 'microsoft',
  'hotmail.com': 'microsoft',
  'hotmail.co.uk': 'microsoft',
  'hotmail.fr': 'microsoft',
  'live.com': 'microsoft',
  'msn.com': 'microsoft',
  'yahoo.com': 'yahoo',
  'yahoo.co.uk': 'yahoo',
  'yahoo.fr': 'yahoo',
  'ymail.com': 'yahoo',
  'rocketmail.com': 'yahoo',
  'aol.com': 'yahoo',
  'icloud.com': 'apple',
  'me.com': 'apple',
  'mac.com': 'apple',
};

/** MX host suffixes, the most specific first (Office 365's hosts end like consumer Outlook's parent). */
const MX_SUFFIXES: readonly (readonly [string, MailboxProvider])[] = [
  ['.google.com', 'google'],
  ['.googlemail.com', 'google'],
  ['.olc.protection.outlook.com', 'microsoft'],
  ['.mail.protection.outlook.com', 'microsoft-365'],
  ['.mx.microsoft', 'microsoft-365'],
  ['.yahoodns.net', 'yahoo'],
  ['.icloud.com', 'apple'],
];

/** The provider of a domain known without a lookup, or undefined. */
export function knownProvider(domain: string): MailboxProvider | undefined {
  return KNOWN_DOMAINS[domain.toLowerCase()];
}

/** The provider of a domain by its MX hosts: the most preferred host that matches a rule; `other` when none does. */
export function providerOfMx(records: readonly { exchange: string; priority: number }[]): MailboxProvider {
  const hosts = [...records].sort((a, b) => a.priority - b.priority).map((r) => `.${r.exchange.toLowerCase().replace(/\.$/, '')}`);
  for (const host of hosts) {
    const rule = MX_SUFFIXES.find(([suffix]) => host.endsWith(suffix));
    if (rule) return rule[1];
  }
  return 'other';
}
