import type { Needs } from '../../platform/core/dependencies';
import { LEAD_SHARDS, leadShards } from '../../platform/store/keys';
import type { AudienceJob } from './audience-job';
import { eventConditions, eventSince, matchesFilter, type EventCondition } from './audience-filter';
import { emailsWithEvent } from './custom-event-repository';
import { deleteDynamicGeneration, putDynamicMembers } from './dynamic-members-repository';
import { readLeadShardPage } from './lead-repository';
import type { Segment } from './segment';
import { getSegment, recordStep, runProgress, setEvaluation, startRun } from './segment-repository';

type Deps = Needs<'db' | 'queue' | 'clock'>;

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
 */
export async function evaluateStep(deps: Deps, job: Extract<AudienceJob, { kind: 'evaluate' }>): Promise<void> {
  const { db } = deps;
  const segment = await getSegment(db, job.project_id, job.segment_id);
  if (!segment || segment.type !== 'dynamic' || !segment.filter || segment.evaluation?.generation !== job.generation) return;
  const progress = (await runProgress(db, job.project_id, job.segment_id))[String(job.shard)];
  if ((progress?.step ?? 0) !== job.step) return;

  const now = deps.clock.now();
  const answers = new Map<EventCondition, Set<string>>();
  for (const c of eventConditions(segment.filter)) answers.set(c, await emailsWithEvent(db, job.project_id, c.event, job.shard, eventSince(c, now)));

  let start = job.start;
  let matched = 0;
  for (let page = 0; page < PAGES_PER_STEP; page++) {
    const { leads, next } = await readLeadShardPage(db, job.project_id, job.shard, start, PAGE_SIZE);
    const members = leads.filter((lead) => matchesFilter(segment.filter!, lead, answers)).map((l) => l.email);
    await putDynamicMembers(db, job.project_id, job.segment_id, job.generation, members);
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
