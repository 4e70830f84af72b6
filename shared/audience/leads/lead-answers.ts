import * as z from '../../platform/core/zod';
import { instantSchema, uuidSchema } from '../../platform/http/answer-fields';

/** User data: the lead's own attributes, `_tags` among them. */
const dataSchema = z.record(z.string(), z.unknown());

/** A lead as the API shows it (presentLead). */
export const leadSchema = z
  .strictObject({
    id: uuidSchema,
    email: z.string().check(z.meta({ examples: ['ada@example.com'] })),
    data: dataSchema,
    created_at: instantSchema,
    updated_at: instantSchema,
    storeplatform_customer_id: z.nullable(z.string()),
    marketing_status: z.enum(['subscribed', 'unsubscribed', 'suppressed']).check(
      z.meta({ description: 'Read from the suppression list: `unsubscribed` after an unsubscribe, `suppressed` for any other entry' }),
    ),
    segment_ids: z.optional(z.array(uuidSchema).check(z.meta({ description: 'The segments the lead is a member of; single-lead answers only' }))),
  })
  .check(z.meta({ id: 'Lead', description: 'A lead: unique per project by its lowercased email; `data._tags` holds its tags' }));

/** A lead as the examples show it. */
export const leadExample = {
  id: '6c1f2d8e-3b4a-4c5d-9e8f-7a6b5c4d3e2f',
  email: 'ada@example.com',
  data: { first_name: 'Ada', plan: 'pro', _tags: ['beta'] },
  created_at: '2026-11-20T08:15:00.000Z',
  updated_at: '2026-11-26T09:30:00.000Z',
  storeplatform_customer_id: null,
  marketing_status: 'subscribed',
};

/** The answer of `POST /v1/leads`. */
export const leadUpsertAnswerSchema = z
  .strictObject({
    success: z.literal(true),
    total: z.int(),
    leads: z.array(z.strictObject({ id: uuidSchema, email: z.string(), created: z.boolean() })),
    warnings: z.optional(z.array(z.string()).check(z.meta({ description: 'Segment ids that are not static segments of the project (the leads are upserted without them)' }))),
  })
  .check(z.meta({ id: 'LeadUpsert', description: 'Each lead upserted (deduplicated by email, last wins), and whether it was created' }));

/** The `pagination` of `GET /v1/leads`; a search adds `next_cursor`. */
export const leadPaginationSchema = z
  .strictObject({
    page: z.int(),
    per_page: z.int(),
    total: z.int(),
    total_pages: z.int(),
    next_cursor: z.optional(z.nullable(z.string()).check(z.meta({ description: 'A search only: pass it as `cursor` for the next page; null at the end' }))),
  })
  .check(z.meta({ id: 'LeadPagination', description: 'Where the page is; a search counts its matches up to this page, plus one while more follow' }));

/** The answer of `GET /v1/leads`. */
export const leadListAnswerSchema = z.strictObject({ success: z.literal(true), data: z.array(leadSchema), pagination: leadPaginationSchema });

/** The answer of `GET` and `PUT /v1/leads/{id}`: the lead with its `segment_ids`. */
export const leadAnswerSchema = z.strictObject({ success: z.literal(true), lead: leadSchema });

/** The answer of a removal (`DELETE /v1/leads/{id}`, `DELETE /v1/leads/{id}/segments/{segmentId}`). */
export const leadDoneAnswerSchema = z.strictObject({ success: z.literal(true) });

/** The answer of `POST /v1/leads/{id}/segments`. */
export const leadSegmentsAddedAnswerSchema = z.strictObject({
  success: z.literal(true),
  added: z.array(uuidSchema).check(z.meta({ description: 'The segments the lead newly joined (those it was in already are left out)' })),
});

/** The answer of the tag routes: the lead's tags after the change. */
export const leadTagsAnswerSchema = z
  .strictObject({ success: z.literal(true), tags: z.array(z.string()) })
  .check(z.meta({ id: 'LeadTags', description: 'The lead\'s tags' }));

/** The answer of the attribute routes: the lead's `data` without `_tags`. */
export const leadAttributesAnswerSchema = z
  .strictObject({ success: z.literal(true), data: dataSchema })
  .check(z.meta({ id: 'LeadAttributes', description: 'The lead\'s attributes (`data` without `_tags`)' }));
