import { MAILBOX_PROVIDERS, type MailboxProvider } from './mailbox-provider';

/**
 * The campaign limits per mailbox provider (docs/campaigns.md, "Pacing per mailbox provider"): the
 * defaults and the operator's PROVIDER_RATES over them. Apart from mailbox-provider.ts so that the
 * functions that only classify (the SES-events worker) do not read the setting.
 */

/** A provider's limit: mails a minute to it from every campaign of the deployment together; null: no limit of its own. */
export type ProviderRates = Readonly<Record<MailboxProvider, number | null>>;

/**
 * The default limits, in mails a minute. No provider publishes a number; these start well below
 * what KumoMTA's shaping file lets one MTA send them (5 connections of 50 mails to Google and to
 * Microsoft, 20 mails a connection to Yahoo, 5 to Apple) and are meant to be raised as the account's
 * reputation allows (PROVIDER_RATES). Mail to `other` domains is paced only by the account's rate.
 */
export const DEFAULT_PROVIDER_RATES: ProviderRates = {
  google: 6000,
  microsoft: 6000,
  'microsoft-365': 6000,
  yahoo: 3000,
  apple: 1200,
  other: null,
};

/**
 * The limits with the operator's `PROVIDER_RATES` (a JSON object of mails a minute by provider,
 * `null` for no limit) over the defaults. Throws a plain message on anything else (the stack checks
 * it at synth; a function given a bad value fails loudly rather than pace wrongly).
 */
export function parseProviderRates(text: string | undefined): ProviderRates {
  if (text === undefined || text.trim() === '') return DEFAULT_PROVIDER_RATES;
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw new Error('PROVIDER_RATES must be a JSON object of mails a minute by provider, e.g. {"google":3000,"yahoo":1000}');
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) throw new Error('PROVIDER_RATES must be a JSON object of mails a minute by provider');
  const rates: Record<string, number | null> = { ...DEFAULT_PROVIDER_RATES };
  for (const [name, rate] of Object.entries(value)) {
    if (!(MAILBOX_PROVIDERS as readonly string[]).includes(name)) throw new Error(`PROVIDER_RATES: unknown provider "${name}" (known: ${MAILBOX_PROVIDERS.join(', ')})`);
    if (rate !== null && !(typeof rate === 'number' && Number.isInteger(rate) && rate >= 1)) throw new Error(`PROVIDER_RATES: the rate of ${name} must be a whole number of mails a minute, 1 or more, or null`);
    rates[name] = rate as number | null;
  }
  return rates as ProviderRates;
}
