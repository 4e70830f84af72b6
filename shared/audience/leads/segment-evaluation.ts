import type { Needs } from '../../platform/core/dependencies';
import { LEAD_SHARDS, leadShards } from '../../platform/store/keys';
import type { AudienceJob } from './audience-job';
import { eventConditions, eventSince, matchesFilter, type EventCondition } from './audience-filter';
import { emailsWithEvent } from './custom-event-repository';
import { deleteDynamicGeneration, dynamicMembersBetween, putDynamicMembers } from './dynamic-members-repository';
import { dynamicMembershipSignal } from './lead-signal-keys';
import type { Lead } from './lead';
import { readLeadShardPage } from './lead-repository';
import type { Segment } from './segment';
import { getSegment, recordStep, runProgress, setEvaluation, startRun } from './segment-repository';

type Deps = Needs<'db' | 'queue' | 'clock'>;
/** A step also reports the leads it finds new in the segment, or gone from it. */
type StepDeps = Needs<'db' | 'queue' | 'clock' | 'leadSignals'>;

/** Leads read per page, and pages per step: a step stays well inside the worker's 30 s. */
export const PAGE_SIZE = 500;
export const PAGES_PER_STEP = 20;

/**
 * Starts a new evaluation run of a dynamic segment: the next generation, and one job per shard of
 * the audience on the `audience` queue. The members of the current generation stay readable until
 * the run finishes.
 */
export async function startEvaluation(deps: Deps, segment: Segment): Promise<Segment> {
  const generation = (segment.evaluation?.generation ?? 0) + 1;
  const evaluation = {
    status: 'running' as const,
    generation,
    started_at: deps.clock.now().toISOString(),
    evaluated_at: segment.evaluation?.evaluated_at ?? null,
    member_count: segment.evaluation?.member_count ?? null,
  };
  await startRun(deps.db, segment.project_id, segment.id, evaluation);
  const jobs: AudienceJob[] = leadShards().map((shard) => ({ kind: 'evaluate', project_id: segment.project_id, segment_id: segment.id, generation, shard, step: 0 }));
  await deps.queue.sendBatch('audience', jobs);
  return { ...segment, evaluation };
}

/**
 * One step of a run: up to PAGES_PER_STEP pages of one shard, matched against the filter, matches
 * written as members of the run's generation (idempotent puts). The step is then recorded only if
 * the shard is still where the job says (a redelivered step records nothing), and the next step is
 * queued; the last shard to finish completes the run.
 *
 * When something listens to the segment's entries or departures (automations), each page is also
 * compared with the current generation's members of the same email range (one keys-only range read
 * a page) and the leads new in the segment, and those gone from it, are reported before the step is
 * recorded: a redelivered step reports them again with the same keys (the generation's).
 */
export async function evaluateStep(deps: StepDeps, job: Extract<AudienceJob, { kind: 'evaluate' }>): Promise<void> {
  const { db } = deps;
  const segment = await getSegment(db, job.project_id, job.segment_id);
  if (!segment || segment.type !== 'dynamic' || !segment.filter || segment.evaluation?.generation !== job.generation) return;
  const progress = (await runProgress(db, job.project_id, job.segment_id))[String(job.shard)];
  if ((progress?.step ?? 0) !== job.step) return;

  const now = deps.clock.now();
  const answers = new Map<EventCondition, Set<string>>();
  for (const c of eventConditions(segment.filter)) answers.set(c, await emailsWithEvent(db, job.project_id, c.event, job.shard, eventSince(c, now)));

  const listening = await deps.leadSignals.listensToSegment(job.project_id, job.segment_id);
  let start = job.start;
  let matched = 0;
  for (let page = 0; page < PAGES_PER_STEP; page++) {
    const { leads, next } = await readLeadShardPage(db, job.project_id, job.shard, start, PAGE_SIZE);
    const found = leads.filter((lead) => matchesFilter(segment.filter!, lead, answers));
    const members = found.map((l) => l.email);
    await putDynamicMembers(db, job.project_id, job.segment_id, job.generation, members);
    if (listening && leads.length > 0) await reportChanges(deps, segment, job, leads, new Set(members));
    matched += members.length;
    start = next;
    if (!start) break;
  }
  const done = !start;
  const { recorded, shardsDone } = await recordStep(db, job.project_id, job.segment_id, job.generation, job.shard, job.step, { step: job.step + 1, count: (progress?.count ?? 0) + matched, done });
  if (!recorded) return;
  if (!done) await deps.queue.send('audience', { ...job, step: job.step + 1, start } satisfies AudienceJob);
  else if (shardsDone === LEAD_SHARDS) await finishRun(deps, segment, job.generation);
}

/** Reports the leads of a page new in the run's generation, and those of the current generation it no longer holds. */
async function reportChanges(deps: StepDeps, segment: Segment, job: Extract<AudienceJob, { kind: 'evaluate' }>, leads: readonly Lead[], members: ReadonlySet<string>): Promise<void> {
  const previous = segment.current_generation ?? 0;
  const before = previous > 0 ? await dynamicMembersBetween(deps.db, job.project_id, job.segment_id, previous, job.shard, leads[0].email, leads[leads.length - 1].email) : new Set<string>();
  const signals = leads.flatMap((lead) => {
    if (members.has(lead.email) && !before.has(lead.email)) return [dynamicMembershipSignal('segment_entered', lead, job.segment_id, job.generation)];
    if (!members.has(lead.email) && before.has(lead.email)) return [dynamicMembershipSignal('segment_left', lead, job.segment_id, job.generation)];
    return [];
  });
  await deps.leadSignals.emit(job.project_id, signals);
}

/** Completes a run: its generation becomes current with the summed count; the previous generation is cleaned up in the background. */
async function finishRun(deps: Deps, segment: Segment, generation: number): Promise<void> {
  const shards = await runProgress(deps.db, segment.project_id, segment.id);
  const count = Object.values(shards).reduce((sum, s) => sum + s.count, 0);
  const evaluation = { status: 'done' as const, generation, started_at: segment.evaluation!.started_at, evaluated_at: deps.clock.now().toISOString(), member_count: count };
  const finished = await setEvaluation(deps.db, segment.project_id, segment.id, evaluation, { currentGeneration: generation, ifGeneration: generation });
  const previous = segment.current_generation ?? 0;
  if (finished && previous > 0) await deps.queue.send('audience', { kind: 'cleanup', project_id: segment.project_id, segment_id: segment.id, generation: previous, deleted: false } satisfies AudienceJob);
}

/** Removes an outdated generation's members. */
export async function cleanupGeneration(deps: Deps, projectId: string, segmentId: string, generation: number): Promise<void> {
  await deleteDynamicGeneration(deps.db, projectId, segmentId, generation);
}
