import type { AudienceFilter } from './audience-filter';

/** How a dynamic segment's last evaluation stands. */
export interface SegmentEvaluation {
  status: 'pending' | 'running' | 'done';
  /** The run being written (`running`) or the last one finished. */
  generation: number;
  started_at: string;
  evaluated_at: string | null;
  member_count: number | null;
}

/**
 * A segment (part 2 leaves its fields open; docs/decisions.md, "Leads, segments and custom events"):
 * static (members added by the API) or dynamic (members are the leads its filter matches, found in
 * the background).
 */
export interface Segment {
  id: string;
  project_id: string;
  name: string;
  description: string | null;
  type: 'static' | 'dynamic';
  filter?: AudienceFilter;
  /** Dynamic segments: the generation whose members are current (0: none yet). */
  current_generation?: number;
  evaluation?: SegmentEvaluation;
  created_at: string;
  updated_at: string;
}

/** The API form of a segment, with its member count. */
export function presentSegment(segment: Segment, memberCount: number) {
  return {
    id: segment.id,
    name: segment.name,
    description: segment.description,
    type: segment.type,
    ...(segment.type === 'dynamic' ? { filter: segment.filter, evaluation: segment.evaluation ?? null } : {}),
    member_count: memberCount,
    created_at: segment.created_at,
    updated_at: segment.updated_at,
  };
}
