import { randomUUID } from 'node:crypto';
import { badRequest } from '../../platform/core/errors';
import type { Clock } from '../../platform/core/ports';
import type { LeadSignal } from '../../platform/core/lead-signals';
import type { Db } from '../../platform/store/client';
import { contentionBackoff, transactWrite, TRANSACTION_LIMIT, type TransactItem } from '../../platform/store/transact';
import { TAGS_KEY, leadName, tagsOf, type Lead } from './lead';
import type { LeadInput } from './lead-input';
import { dataNames, leadLimitProblem } from './lead-limits';
import { createLeadActions, getLeadsByEmail, leadCounterAction, replaceLeadAction } from './lead-repository';
import { addMembershipAction, existingMemberships, getSegments, segmentCounterAction } from './segment-repository';
import { leadCreatedSignal, staticMembershipSignals, tagsAddedSignals } from './lead-signal-keys';

/** What became of one row of an upsert. */
export interface UpsertResult {
  id: string;
  email: string;
  created: boolean;
}

/** A lead an upsert left out because the write would take it over a per-lead limit. */
export interface LimitRefusal {
  email: string;
  /** The 400's message: which limit, and by what. */
  problem: string;
}

/** How an upsert treats leads that a write would take over a per-lead limit. */
export interface UpsertOptions {
  /**
   * Leave out the leads a write would take over a per-lead limit and list them in `refused` (an
   * import fails those rows); by default the call is refused with a 400 naming the first of them.
   */
  readonly skipOverLimit?: boolean;
  /** How a refusal names a lead's `data` (`leads[2].data`); by default `data`. */
  readonly dataField?: (email: string) => string;
}

const ATTEMPTS = 10;
/** Transactions of one call in flight at once. */
const PARALLEL_TRANSACTIONS = 8;

/** The lead an input makes of the current one (or of nothing): data shallow-merged, tags merged, customer id carried. */
export function mergeLead(projectId: string, input: LeadInput, current: Lead | undefined, now: string): Lead {
  const data = { ...(current?.data ?? {}), ...(input.data ?? {}) };
  const tags = [...new Set([...tagsOf(current?.data ?? {}), ...tagsOf(input.data ?? {})])];
  if (tags.length > 0) data[TAGS_KEY] = tags;
  const name = leadName(data);
  return {
    id: current?.id ?? randomUUID(),
    project_id: projectId,
    email: input.email,
    data,
    storeplatform_customer_id: input.storeplatformCustomerId !== undefined ? input.storeplatformCustomerId : (current?.storeplatform_customer_id ?? null),
    created_at: current?.created_at ?? now,
    updated_at: now,
    version: (current?.version ?? 0) + 1,
    ...(name ? { name_lc: name } : {}),
  };
}

const unchanged = (a: Lead, b: Lead) => JSON.stringify(a.data) === JSON.stringify(b.data) && a.storeplatform_customer_id === b.storeplatform_customer_id;

/** One lead's share of a transaction: its actions and the counters they move. */
interface Plan {
  input: LeadInput;
  lead: Lead;
  created: boolean;
  actions: TransactItem[];
  newMemberships: string[];
  /** The stored lead the plan read (none: the plan creates it). */
  before?: Lead;
  /** Why the merged lead breaks a per-lead limit (then nothing of it is written). */
  problem?: string;
}

/**
 * Upserts validated, deduplicated leads (the API's POST /v1/leads and an import call the same
 * function): reads them 100 per BatchGet in parallel, writes them in transactions of up to 100
 * actions (a new lead and its id item only if its email is still free, an existing one only if
 * unchanged since read, each new membership only if absent, with the lead and segment counters moved
 * in the same transaction), several in parallel. A transaction that loses a race is read and
 * planned again, so concurrent upserts of one email make one lead and the counters stay exact.
 * Each merged lead is held to the per-lead limits (lead-limits.ts) as it is planned, so a lost race
 * re-checks the lead as the winner left it: two calls can never together pass a limit.
 * Results come in input order; `warnings` lists the segment ids that are not static segments of the project.
 * `signals` are what the written leads went through (created, tags added, segments entered), for
 * the caller to emit once the call is done (lead-signal-keys.ts).
 */
export async function upsertLeads(
  db: Db,
  clock: Clock,
  projectId: string,
  inputs: readonly LeadInput[],
  options: UpsertOptions = {},
): Promise<{ results: UpsertResult[]; warnings: string[]; refused: LimitRefusal[]; signals: LeadSignal[] }> {
  const requested = [...new Set(inputs.flatMap((i) => i.segmentIds))];
  const segments = requested.length > 0 ? await getSegments(db, projectId, requested) : new Map();
  const known = new Set(requested.filter((id) => segments.get(id)?.type === 'static'));
  const warnings = requested.filter((id) => !known.has(id));

  const results = new Map<string, UpsertResult>();
  const refused = new Map<string, string>();
  const signals: LeadSignal[] = [];
  let pending = inputs.map((input) => ({ ...input, segmentIds: input.segmentIds.filter((id) => known.has(id)) }));
  for (let attempt = 1; pending.length > 0; attempt++) {
    if (attempt > ATTEMPTS) throw new Error(`${pending.length} leads kept conflicting with concurrent writes`);
    if (attempt > 1) await contentionBackoff(attempt);
    const plans = await plan(db, clock, projectId, pending, options.dataField);
    const over = plans.filter((p) => p.problem !== undefined);
    // Before the first write of the call (unless a lost race brought the limit near since).
    if (over.length > 0 && !options.skipOverLimit) throw badRequest(over[0].problem!);
    for (const p of over) refused.set(p.input.email, p.problem!);
    const retry: LeadInput[] = [];
    const chunks = chunkPlans(plans.filter((p) => p.problem === undefined));
    let next = 0;
    const lane = async () => {
      while (next < chunks.length) {
        const chunk = chunks[next++];
        const outcome = await transactWrite(db, withCounters(db, projectId, chunk));
        if (outcome.written) {
          for (const p of chunk) results.set(p.input.email, { id: p.lead.id, email: p.lead.email, created: p.created });
          signals.push(...chunk.flatMap(signalsOf));
        } else retry.push(...chunk.map((p) => p.input));
      }
    };
    await Promise.all(Array.from({ length: Math.min(PARALLEL_TRANSACTIONS, chunks.length) }, lane));
    pending = retry;
  }
  return {
    results: inputs.flatMap((i) => results.get(i.email) ?? []),
    warnings,
    refused: inputs.flatMap((i) => (refused.has(i.email) ? [{ email: i.email, problem: refused.get(i.email)! }] : [])),
    signals,
  };
}

/** What a written plan did to its lead, as lead signals; a plan that wrote nothing did nothing. */
function signalsOf(p: Plan): LeadSignal[] {
  if (p.actions.length === 0) return [];
  return [
    ...(p.created ? [leadCreatedSignal(p.lead)] : []),
    ...tagsAddedSignals(p.lead, p.before?.data, p.lead.data),
    ...staticMembershipSignals(p.lead, { added: p.newMemberships, removed: [] }, p.lead.updated_at),
  ];
}

/** Reads the current leads and memberships (consistently) and plans each lead's actions; a lead with nothing to change is settled at once. */
async function plan(db: Db, clock: Clock, projectId: string, inputs: readonly LeadInput[], dataField?: (email: string) => string): Promise<Plan[]> {
  const now = clock.now().toISOString();
  const current = await getLeadsByEmail(db, projectId, inputs.map((i) => i.email), true);
  const pairs = inputs.flatMap((i) => (current.has(i.email) ? i.segmentIds.map((segmentId) => ({ leadId: current.get(i.email)!.id, segmentId })) : []));
  const members = pairs.length > 0 ? await existingMemberships(db, projectId, pairs) : new Set<string>();
  return inputs.map((input) => {
    const before = current.get(input.email);
    const lead = mergeLead(projectId, input, before, now);
    // Only `data` can take a lead over a limit; an input without it leaves the stored data as it is.
    const problem = input.data !== undefined ? leadLimitProblem(dataNames(dataField?.(input.email)), lead.data, before?.data) : undefined;
    if (problem) return { input, lead, created: !before, actions: [], newMemberships: [], before, problem };
    const newMemberships = input.segmentIds.filter((s) => !members.has(`${lead.id}#${s}`));
    const actions: TransactItem[] = [];
    if (!before) actions.push(...createLeadActions(db, lead));
    else if (!unchanged(before, lead) || newMemberships.length > 0) actions.push(replaceLeadAction(db, lead, before.version));
    actions.push(...newMemberships.map((s) => addMembershipAction(db, projectId, s, lead)));
    // An unchanged lead with no new membership keeps its stored item and version.
    return { input, lead: actions.length === 0 && before ? before : lead, created: !before, actions, newMemberships, before };
  });
}

/** Counter actions a chunk needs: one for the created leads, one per segment that gains members. */
function counterCount(plans: readonly Plan[]): number {
  return (plans.some((p) => p.created) ? 1 : 0) + new Set(plans.flatMap((p) => p.newMemberships)).size;
}

/** Groups plans into transactions of at most 100 actions, counters included. */
function chunkPlans(plans: readonly Plan[]): Plan[][] {
  const chunks: Plan[][] = [];
  let current: Plan[] = [];
  let actions = 0;
  for (const p of plans) {
    const candidate = [...current, p];
    if (current.length > 0 && actions + p.actions.length + counterCount(candidate) > TRANSACTION_LIMIT) {
      chunks.push(current);
      current = [];
      actions = 0;
    }
    current.push(p);
    actions += p.actions.length;
  }
  if (current.length > 0) chunks.push(current);
  // A plan with nothing to write still settles (its result is known) through an empty transaction.
  return chunks;
}

/** A chunk's actions and its counter updates. */
function withCounters(db: Db, projectId: string, chunk: readonly Plan[]): TransactItem[] {
  const actions = chunk.flatMap((p) => p.actions);
  const created = chunk.filter((p) => p.created).length;
  if (created > 0) actions.push(leadCounterAction(db, projectId, created));
  const gains = new Map<string, number>();
  for (const s of chunk.flatMap((p) => p.newMemberships)) gains.set(s, (gains.get(s) ?? 0) + 1);
  for (const [s, n] of gains) actions.push(segmentCounterAction(db, projectId, s, n));
  return actions;
}
