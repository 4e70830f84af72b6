import { randomUUID } from 'node:crypto';
import type { Lead } from '../../audience/leads/lead';
import { MAILBOX_PROVIDERS, type MailboxProvider } from '../../mail-pipeline/delivery/mailbox-provider';
import { parseProviderRates, type ProviderRates } from '../../mail-pipeline/delivery/provider-rates';
import { deferralsIn } from '../../mail-pipeline/delivery/mailbox-provider-repository';
import { providersOf } from '../../mail-pipeline/delivery/mx-cache';
import { minuteOf } from '../../mail-pipeline/delivery/provider-deferrals';
import type { Needs } from '../../platform/core/dependencies';
import { domainOf } from '../../platform/mail/addresses';
import { parkedRecipientsObjectKey } from '../../platform/store/keys';
import { readAudiencePage, type AudiencePage, type CursorPosition } from './audience-cursor';
import type { Campaign } from './campaign';
import { providerPaces, recordProviderBurst, takeFromProviderMinute, takenInProviderMinute, type ProviderPace } from './campaign-gateway';
import { RATE_WINDOW_SECONDS } from './pacing';

/**
 * Pacing per mailbox provider (docs/campaigns.md): each provider (Google, Microsoft, Yahoo, Apple...)
 * takes campaign mail from a budget of its own, a number of mails a minute shared by every campaign
 * of the deployment (PROVIDER_RATES), halved after a burst of its deferrals. Recipients whose
 * provider has no budget left are parked (a blob per page, named in the cursor's position) and
 * released first once it has, so they never hold up the other providers' recipients.
 */

/** A run of parked recipients of one provider: `count` left from `offset` in the blob `id`. */
export interface ParkedRun {
  id: string;
  provider: MailboxProvider;
  offset: number;
  count: number;
}

/** The cursor's position with what provider pacing keeps in it. */
export interface PacedPosition extends CursorPosition {
  /** Parked recipients, oldest first. */
  parked?: ParkedRun[];
  /** The audience is read whole (parked recipients may remain). */
  audience_done?: boolean;
}

/** Parked recipients a campaign holds at most: beyond them the step reads no more of the audience until some are released. */
export const MAX_PARKED = 50_000;
/** Parked runs a position holds at most (each about 80 bytes in the cursor and the wave header). */
export const MAX_PARKED_RUNS = 48;

/** Halvings of a provider's pace at most (1/16 of its rate). */
export const MAX_BACKOFF_LEVEL = 4;
/** Clean minutes after a burst before a provider's pace doubles again (one level a period). */
export const RECOVERY_MINUTES = 5;
/** Deferrals in a minute that make a burst: at least this many... */
export const BURST_MIN_DEFERRALS = 5;
/** ...and at least this share of the provider's rate a minute. */
export const BURST_SHARE = 0.05;

let parsedRates: { text: string | undefined; rates: ProviderRates } | undefined;

/** The operator's limits (PROVIDER_RATES over the defaults), parsed once per value. */
export function providerRates(config: { PROVIDER_RATES?: string }): ProviderRates {
  if (!parsedRates || parsedRates.text !== config.PROVIDER_RATES) parsedRates = { text: config.PROVIDER_RATES, rates: parseProviderRates(config.PROVIDER_RATES) };
  return parsedRates.rates;
}

/** The level a provider's pace stands at in minute `minute` after its last burst: one level back per RECOVERY_MINUTES clean minutes. */
export function levelAt(pace: ProviderPace | undefined, minute: number): number {
  if (!pace) return 0;
  const clean = Math.max(0, (minute - pace.bad_minute - 60) / 60);
  return Math.max(0, pace.level - Math.floor(clean / RECOVERY_MINUTES));
}

/** Whether `deferred` deferrals in a minute are a burst for a provider of `rate` mails a minute. */
export const isBurst = (deferred: number, rate: number): boolean => deferred >= Math.max(BURST_MIN_DEFERRALS, Math.ceil(rate * BURST_SHARE));

/** A provider's mails a minute at `level`: its rate halved `level` times, at least 1. */
export const pacedRate = (rate: number, level: number): number => Math.max(1, Math.floor(rate / 2 ** level));

/** Each provider's level in this container, for the minute it was worked out. */
const levels = new Map<MailboxProvider, { minute: number; level: number }>();

/** Forgets this container's levels (tests). */
export function forgetProviderLevels(): void {
  levels.clear();
}

/**
 * The pace level of each of `providers` this minute: once a minute per container, one BatchGet of
 * their states and of their deferral counters of the minute before; a burst there records one more
 * halving (once, whoever sees it first).
 */
async function levelsOf(deps: Needs<'db'>, providers: readonly MailboxProvider[], rates: ProviderRates, minute: number): Promise<void> {
  const stale = providers.filter((p) => levels.get(p)?.minute !== minute);
  if (stale.length === 0) return;
  const [paces, deferred] = await Promise.all([providerPaces(deps.db, stale), deferralsIn(deps.db, stale, minute - 60)]);
  for (const provider of stale) {
    const pace = paces.get(provider);
    let level = levelAt(pace, minute);
    if (isBurst(deferred.get(provider) ?? 0, rates[provider] ?? 0) && (pace?.bad_minute ?? -1) < minute - 60) {
      level = Math.min(MAX_BACKOFF_LEVEL, level + 1);
      await recordProviderBurst(deps.db, provider, { level, bad_minute: minute - 60 });
    }
    levels.set(provider, { minute, level });
  }
}

/** What one engine step took from each provider, so a step asks a provider once its share is spent no more. */
interface StepTakes {
  minute: number;
  taken: Map<MailboxProvider, number>;
  spent: Set<MailboxProvider>;
}
const stepTakes = new WeakMap<Campaign, StepTakes>();

/**
 * Mails of each provider the step may release, up to `wants[p]`: its paced rate's share of a step
 * window (so a minute's budget is spread over its windows), from the providers' minute budgets shared
 * by every campaign, all taken in one write. A provider without a limit gets what it wants.
 */
async function grant(deps: Needs<'db'>, takes: StepTakes, rates: ProviderRates, wants: ReadonlyMap<MailboxProvider, number>): Promise<Map<MailboxProvider, number>> {
  const granted = new Map<MailboxProvider, number>();
  const asks: Partial<Record<MailboxProvider, number>> = {};
  const capacity: Partial<Record<MailboxProvider, number>> = {};
  for (const [provider, want] of wants) {
    const rate = rates[provider];
    if (want <= 0) continue;
    if (rate === null) {
      granted.set(provider, want);
      continue;
    }
    if (takes.spent.has(provider)) continue;
    await levelsOf(deps, [provider], rates, takes.minute);
    capacity[provider] = pacedRate(rate, levels.get(provider)?.level ?? 0);
    const share = Math.ceil((capacity[provider]! * RATE_WINDOW_SECONDS) / 60) - (takes.taken.get(provider) ?? 0);
    if (share > 0) asks[provider] = Math.min(want, share);
    else takes.spent.add(provider);
  }
  let got: Partial<Record<MailboxProvider, number>> = asks;
  if (!(await takeFromProviderMinute(deps.db, takes.minute, asks as Record<string, number>, capacity as Record<string, number>))) {
    // One provider's budget ran short: what is left of each, then one more try (a lost race sends less, never more).
    const taken = await takenInProviderMinute(deps.db, takes.minute);
    const left = Object.fromEntries(Object.entries(asks).map(([p, n]) => [p, Math.max(0, Math.min(n, capacity[p as MailboxProvider]! - (taken[p] ?? 0)))]));
    got = (await takeFromProviderMinute(deps.db, takes.minute, left, capacity as Record<string, number>)) ? left : {};
  }
  for (const [provider, n] of Object.entries(got) as [MailboxProvider, number][]) {
    granted.set(provider, n);
    takes.taken.set(provider, (takes.taken.get(provider) ?? 0) + n);
  }
  for (const [provider, want] of wants) if ((granted.get(provider) ?? 0) < want && rates[provider] !== null) takes.spent.add(provider);
  return granted;
}

/**
 * The engine's page, paced per provider: first the parked recipients whose provider has budget
 * now, then a page of the audience, of which each provider's recipients beyond its budget are
 * parked. The position it answers (parked runs included) is what the wave header and the cursor
 * save, so a replayed step follows the same wave and parks nothing twice; `exhausted` only once
 * the audience is read whole and nobody is parked.
 */
export async function readPacedPage(deps: Needs<'config' | 'db' | 'dns' | 'blobs' | 'clock'>, campaign: Campaign, position: CursorPosition, limit: number): Promise<AudiencePage> {
  const rates = providerRates(deps.config);
  const minute = minuteOf(deps.clock.now());
  let takes = stepTakes.get(campaign);
  if (!takes || takes.minute !== minute) stepTakes.set(campaign, (takes = { minute, taken: new Map(), spent: new Set() }));
  const { parked: parkedBefore = [], audience_done: audienceDoneBefore = false, ...audienceAt } = position as PacedPosition;
  await levelsOf(deps, MAILBOX_PROVIDERS.filter((p) => rates[p] !== null), rates, minute);

  // The audience's next page, unless it is read whole or the parked recipients reached their bound.
  const runs: ParkedRun[] = parkedBefore.map((r) => ({ ...r }));
  const parkedCount = runs.reduce((n, r) => n + r.count, 0);
  let audience: CursorPosition = audienceAt;
  let audienceDone = audienceDoneBefore;
  const fresh = new Map<MailboxProvider, Lead[]>();
  // Parked recipients come first: a page is read only when the providers they wait for may not fill it.
  const waiting = new Map<MailboxProvider, number>();
  for (const run of runs) if (!takes.spent.has(run.provider)) waiting.set(run.provider, (waiting.get(run.provider) ?? 0) + run.count);
  const waitingCount = [...waiting.values()].reduce((a, b) => a + b, 0);
  if (!audienceDone && waitingCount < limit && parkedCount < MAX_PARKED && runs.length + MAILBOX_PROVIDERS.length <= MAX_PARKED_RUNS) {
    const page = await readAudiencePage(deps, campaign, audienceAt, Math.min(limit - waitingCount, MAX_PARKED - parkedCount));
    audience = page.position;
    audienceDone = page.exhausted;
    const providers = await providersOf(deps, page.leads.map((l) => domainOf(l.email)));
    for (const lead of page.leads) {
      const provider = providers.get(domainOf(lead.email)) ?? 'other';
      const group = fresh.get(provider);
      if (group) group.push(lead);
      else fresh.set(provider, [lead]);
    }
  }

  // One take for every provider with recipients, parked ones first, at most `limit` in all.
  const wants = new Map<MailboxProvider, number>();
  let room = limit;
  for (const [provider, n] of waiting) {
    const want = Math.min(n + (fresh.get(provider)?.length ?? 0), room);
    wants.set(provider, want);
    room -= want;
  }
  for (const [provider, group] of fresh) {
    if (wants.has(provider)) continue;
    const want = Math.min(group.length, room);
    wants.set(provider, want);
    room -= want;
  }
  const granted = await grant(deps, takes, rates, wants);

  const leads: Lead[] = [];
  const blobs = new Map<string, Promise<Partial<Record<MailboxProvider, Lead[]>>>>();
  const blob = (id: string) => {
    if (!blobs.has(id)) blobs.set(id, deps.blobs.get(parkedRecipientsObjectKey(campaign.project_id, campaign.id, id)).then((b) => JSON.parse(b.toString('utf8'))));
    return blobs.get(id)!;
  };
  const parkNow: Partial<Record<MailboxProvider, Lead[]>> = {};
  for (const provider of new Set([...wants.keys(), ...fresh.keys()])) {
    let n = granted.get(provider) ?? 0;
    for (const run of runs) {
      if (n <= 0) break;
      if (run.provider !== provider || run.count === 0) continue;
      const k = Math.min(n, run.count);
      leads.push(...((await blob(run.id))[provider] ?? []).slice(run.offset, run.offset + k));
      run.offset += k;
      run.count -= k;
      n -= k;
    }
    const group = fresh.get(provider) ?? [];
    leads.push(...group.slice(0, n));
    if (n < group.length) parkNow[provider] = group.slice(Math.max(0, n));
  }
  let parked = runs.filter((r) => r.count > 0);
  const parkedProviders = Object.keys(parkNow) as MailboxProvider[];
  if (parkedProviders.length > 0) {
    // A new object per page (a random id): of two runs of one step, each position names only its own.
    const id = randomUUID();
    await deps.blobs.put(parkedRecipientsObjectKey(campaign.project_id, campaign.id, id), Buffer.from(JSON.stringify(parkNow)));
    parked = [...parked, ...parkedProviders.map((provider) => ({ id, provider, offset: 0, count: parkNow[provider]!.length }))];
  }
  const next: PacedPosition = { ...audience, ...(parked.length > 0 ? { parked } : {}), ...(audienceDone ? { audience_done: true } : {}) };
  return { leads, position: next, exhausted: audienceDone && parked.length === 0 };
}
