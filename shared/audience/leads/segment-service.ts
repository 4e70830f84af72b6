import { randomUUID } from 'node:crypto';
import type { Needs } from '../../platform/core/dependencies';
import { badRequest, conflict, notFound } from '../../platform/core/errors';
import { batchWriteAll } from '../../platform/store/batch-write';
import { contentionBackoff } from '../../platform/store/transact';
import { leadShards, membershipKey, segmentMembersPartition, leadOfMembershipPartition } from '../../platform/store/keys';
import type { AudienceJob } from './audience-job';
import { uuidParam } from './lead-input';
import type { SegmentCreateInput, SegmentUpdateInput } from './segment-request';
import { presentSegment, type Segment } from './segment';
import { cleanupGeneration, evaluateStep, startEvaluation } from './segment-evaluation';
import {
  countSegments,
  deleteSegmentCounters,
  deleteSegmentItem,
  getSegment,
  listSegments,
  membersPage,
  putNewSegment,
  renameSegment,
  segmentMemberCounts,
  type SegmentCountOutcome,
} from './segment-repository';
import { deleteDynamicGeneration } from './dynamic-members-repository';

type Deps = Needs<'db' | 'queue' | 'clock'>;

/** Most segments a project may have: the list and its counts are one Query each. */
export const MAX_SEGMENTS = 500;

/** Rounds a segment create or delete may take against concurrent ones on the project's count. */
const COUNT_ATTEMPTS = 12;

/**
 * Runs a segment create or delete (a transaction with the project's segment count): sets the count
 * first where the project has none yet, retries a transaction another one held, and answers the
 * cap's 400 or the segment's 404.
 */
async function moveSegmentCount(db: Deps['db'], projectId: string, write: () => Promise<SegmentCountOutcome>): Promise<void> {
  for (let attempt = 1; ; attempt++) {
    const outcome = await write();
    if (outcome === 'done') return;
    if (outcome === 'full') throw badRequest(`A project may have at most ${MAX_SEGMENTS} segments`);
    if (outcome === 'gone') throw notFound('Segment not found');
    if (attempt >= COUNT_ATTEMPTS) throw conflict('Segments are being created or deleted concurrently; try again', 'CONFLICT');
    if (outcome === 'uncounted') await countSegments(db, projectId);
    else await contentionBackoff(attempt);
  }
}

/** A segment's member count: static from its counters, dynamic from its last finished run. */
const countOf = (segment: Segment, counts: Map<string, number>) =>
  segment.type === 'static' ? Math.max(0, counts.get(segment.id) ?? 0) : (segment.current_generation ? (segment.evaluation?.member_count ?? 0) : 0);

/** POST /v1/segments: `name` (required), `description`; with `filter`, a dynamic segment whose first evaluation starts at once. */
export async function createSegment(deps: Deps, projectId: string, input: SegmentCreateInput) {
  const { name, description, filter } = input;
  const now = deps.clock.now().toISOString();
  let segment: Segment = {
    id: randomUUID(),
    project_id: projectId,
    name,
    description,
    type: filter ? 'dynamic' : 'static',
    ...(filter ? { filter, current_generation: 0 } : {}),
    created_at: now,
    updated_at: now,
  };
  await moveSegmentCount(deps.db, projectId, () => putNewSegment(deps.db, segment, MAX_SEGMENTS));
  if (filter) segment = await startEvaluation(deps, segment);
  return presentSegment(segment, 0);
}

/** GET /v1/segments: every segment of the project with its member count, newest first. */
export async function listProjectSegments(deps: Deps, projectId: string) {
  const [segments, counts] = await Promise.all([listSegments(deps.db, projectId), segmentMemberCounts(deps.db, projectId)]);
  return segments.sort((a, b) => (a.created_at < b.created_at ? 1 : -1)).map((s) => presentSegment(s, countOf(s, counts)));
}

async function requireSegment(deps: Deps, projectId: string, rawId: string | undefined): Promise<Segment> {
  const segment = await getSegment(deps.db, projectId, uuidParam(rawId, 'segment'));
  if (!segment) throw notFound('Segment not found');
  return segment;
}

/** GET /v1/segments/:id. */
export async function showSegment(deps: Deps, projectId: string, rawId: string | undefined) {
  const segment = await requireSegment(deps, projectId, rawId);
  return presentSegment(segment, countOf(segment, await segmentMemberCounts(deps.db, projectId)));
}

/** PATCH /v1/segments/:id: renames (`name`, `description`); a segment's type and filter are fixed at creation. */
export async function updateSegment(deps: Deps, projectId: string, rawId: string | undefined, fields: SegmentUpdateInput) {
  const id = uuidParam(rawId, 'segment');
  if (!(await renameSegment(deps.db, projectId, id, fields, deps.clock.now().toISOString()))) throw notFound('Segment not found');
  return showSegment(deps, projectId, id);
}

/** DELETE /v1/segments/:id: the segment goes at once (leads stop showing it); its memberships are removed in the background. */
export async function deleteSegment(deps: Deps, projectId: string, rawId: string | undefined): Promise<void> {
  const segment = await requireSegment(deps, projectId, rawId);
  await moveSegmentCount(deps.db, projectId, () => deleteSegmentItem(deps.db, projectId, segment.id));
  await deps.queue.send('audience', { kind: 'cleanup', project_id: projectId, segment_id: segment.id, generation: segment.current_generation, deleted: true } satisfies AudienceJob);
}

/** POST /v1/segments/:id/evaluate: starts a new run of a dynamic segment (409-free: a newer run supersedes a running one). */
export async function reevaluateSegment(deps: Deps, projectId: string, rawId: string | undefined) {
  const segment = await requireSegment(deps, projectId, rawId);
  if (segment.type !== 'dynamic') throw badRequest('Only dynamic segments are evaluated');
  const started = await startEvaluation(deps, segment);
  return presentSegment(started, countOf(started, new Map()));
}

/** Runs one job of the `audience` queue. */
export async function runAudienceJob(deps: Needs<'db' | 'queue' | 'clock' | 'leadSignals'>, job: AudienceJob): Promise<void> {
  if (job.kind === 'evaluate') return evaluateStep(deps, job);
  if (!job.deleted) return cleanupGeneration(deps, job.project_id, job.segment_id, job.generation ?? 0);
  // A deleted segment: its static memberships (page by page, every shard), its counters, its dynamic members.
  for (const shard of leadShards()) {
    let start: Record<string, unknown> | undefined;
    do {
      const page = await membersPage(deps.db, segmentMembersPartition(job.project_id, job.segment_id, shard), start, 1000);
      await batchWriteAll(deps.db, page.items.map((item) => ({ delete: { ...membershipKey(job.project_id, leadOfMembershipPartition(String(item.pk)), job.segment_id) } })));
      start = page.next;
    } while (start);
  }
  await deleteSegmentCounters(deps.db, job.project_id, job.segment_id);
  if (job.generation) await deleteDynamicGeneration(deps.db, job.project_id, job.segment_id, job.generation);
}
