import * as z from '../../platform/core/zod';
import { instantSchema, uuidSchema } from '../../platform/http/answer-fields';

/** A tag condition as stored: the lists given, each of 1 to 100 tags. */
const tagConditionAnswer = z.strictObject({
  tags: z.strictObject({ any: z.optional(z.array(z.string())), all: z.optional(z.array(z.string())), none: z.optional(z.array(z.string())) }),
});

/** An attribute condition as stored: no value for `exists` and `not_exists`, a list for `in`. */
const attributeConditionAnswer = z.strictObject({
  attribute: z.string(),
  op: z.enum(['eq', 'neq', 'gt', 'gte', 'lt', 'lte', 'contains', 'in', 'exists', 'not_exists']),
  value: z.optional(z.union([z.string(), z.number(), z.boolean(), z.array(z.union([z.string(), z.number()]))])),
});

/** An event condition as stored: done or not done, ever or in the last `within_days` days. */
const eventConditionAnswer = z.strictObject({
  event: z.string(),
  done: z.boolean(),
  within_days: z.optional(z.int()),
});

/** A dynamic segment's filter as stored (shared/audience/leads/audience-filter.ts): `match` is always set. */
export const segmentFilterAnswerSchema = z
  .strictObject({
    match: z.enum(['all', 'any']),
    conditions: z.array(z.union([tagConditionAnswer, attributeConditionAnswer, eventConditionAnswer])),
  })
  .check(z.meta({ id: 'SegmentFilter', description: 'The leads a dynamic segment holds: all or any of its conditions (tags, an attribute, an event done or not)' }));

/** How a dynamic segment's last evaluation stands (shared/audience/leads/segment.ts). */
export const segmentEvaluationSchema = z
  .strictObject({
    status: z.enum(['pending', 'running', 'done']),
    generation: z.int().check(z.meta({ description: 'The run: 1 for the first, one more for each evaluation started' })),
    started_at: instantSchema,
    evaluated_at: z.nullable(instantSchema),
    member_count: z.nullable(z.int()).check(z.meta({ description: 'Members the last finished run found; null before one finished' })),
  })
  .check(z.meta({ id: 'SegmentEvaluation', description: 'A dynamic segment\'s evaluation: the run going on or the last one finished, with its member count' }));

const segmentFields = {
  id: uuidSchema,
  name: z.string(),
  description: z.nullable(z.string()),
  member_count: z.int().check(z.meta({ description: 'Members now: a static segment\'s count, a dynamic one\'s last finished run\'s (0 before its first)' })),
  created_at: instantSchema,
  updated_at: instantSchema,
};

/** A segment as presentSegment builds it: static, or dynamic with its filter and evaluation. */
export const segmentSchema = z
  .union([
    z.strictObject({ ...segmentFields, type: z.literal('static') }),
    z.strictObject({ ...segmentFields, type: z.literal('dynamic'), filter: segmentFilterAnswerSchema, evaluation: z.nullable(segmentEvaluationSchema) }),
  ])
  .check(
    z.meta({
      id: 'Segment',
      description: 'A segment: `static` (members added through the leads API) or `dynamic` (the leads its filter matches, found in the background); `member_count` of a dynamic one is its last finished run\'s',
    }),
  );

/** `{success, segment}`: the answer of create, show, rename and evaluate. */
export const segmentAnswerSchema = z
  .strictObject({ success: z.literal(true), segment: segmentSchema })
  .check(z.meta({ id: 'SegmentAnswer', description: 'One segment' }));

/** The answer of `GET /v1/segments`: every segment of the project, newest first. */
export const segmentListAnswerSchema = z
  .strictObject({ success: z.literal(true), data: z.array(segmentSchema) })
  .check(z.meta({ id: 'SegmentList', description: 'Every segment of the project, newest first' }));

/** The answer of `DELETE /v1/segments/{id}`. */
export const segmentDeletedAnswerSchema = z.strictObject({ success: z.literal(true) }).check(z.meta({ id: 'SegmentDeleted', description: 'The segment is gone; its memberships are removed in the background' }));

/** Realistic segments for the docs. */
export const segmentExamples = {
  static: {
    id: '5c9e1f3a-2b4d-4e6f-8a1b-3c5d7e9f0a2b',
    name: 'VIP',
    description: 'Our best customers',
    type: 'static',
    member_count: 42,
    created_at: '2026-11-20T10:15:00.000Z',
    updated_at: '2026-11-20T10:15:00.000Z',
  },
  dynamic: {
    id: '8a2b4c6d-1e3f-4a5b-9c7d-2e4f6a8b0c1d',
    name: 'VIP buyers',
    description: null,
    type: 'dynamic',
    filter: { match: 'all', conditions: [{ tags: { any: ['vip'] } }, { event: 'purchase', done: true, within_days: 30 }] },
    evaluation: { status: 'running', generation: 1, started_at: '2026-11-26T09:30:00.000Z', evaluated_at: null, member_count: null },
    member_count: 0,
    created_at: '2026-11-26T09:30:00.000Z',
    updated_at: '2026-11-26T09:30:00.000Z',
  },
} as const;
