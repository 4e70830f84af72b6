import * as z from '../../platform/core/zod';

/** A message of the `audience` queue. */
export const audienceJobSchema = z.discriminatedUnion('kind', [
  /** One step of a dynamic segment's evaluation: a shard of the audience from `start` on. */
  z.object({
    kind: z.literal('evaluate'),
    project_id: z.string(),
    segment_id: z.string(),
    generation: z.number().check(z.int(), z.positive()),
    shard: z.number().check(z.int(), z.nonnegative()),
    /** Steps of this shard done before this one: the run records it, so a redelivered step changes nothing. */
    step: z.number().check(z.int(), z.nonnegative()),
    start: z.optional(z.record(z.string(), z.unknown())),
  }),
  /** Removes what a deleted segment or an outdated evaluation left: memberships, counters, a generation's members. */
  z.object({
    kind: z.literal('cleanup'),
    project_id: z.string(),
    segment_id: z.string(),
    generation: z.optional(z.number().check(z.int(), z.nonnegative())),
    deleted: z.boolean(),
  }),
]);

export type AudienceJob = z.infer<typeof audienceJobSchema>;

/** Parses a queue message body; a malformed one throws (and lands in the dead-letter queue). */
export const parseAudienceJob = (body: string): AudienceJob => audienceJobSchema.parse(JSON.parse(body));
