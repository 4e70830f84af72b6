import * as z from '../../platform/core/zod';
import { instantSchema, uuidSchema } from '../../platform/http/answer-fields';
import type { CampaignStatus } from './campaign';

/** Part 3's campaign states, in their order. */
export const CAMPAIGN_STATUSES = ['initializing', 'pending', 'processing', 'rate_limited', 'paused', 'completed', 'failed', 'cancelled'] as const satisfies readonly CampaignStatus[];

/** A campaign's state (part 3). */
export const campaignStatusSchema = z.enum(CAMPAIGN_STATUSES).check(
  z.meta({
    id: 'CampaignStatus',
    description: 'Part 3\'s states: `initializing` (counting the audience), `pending` (waiting for its start), `processing`, `rate_limited`, `paused`, and the final `completed`, `failed`, `cancelled`',
  }),
);

/** An instant, or null while it has not happened (or was not set). */
const maybeInstant = z.nullable(instantSchema);

/** One condition of a stored audience filter, in the keys of its kind only (shared/audience/leads/audience-filter.ts). */
const filterConditionSchema = z.union([
  z.strictObject({ tags: z.strictObject({ any: z.optional(z.array(z.string())), all: z.optional(z.array(z.string())), none: z.optional(z.array(z.string())) }) }),
  z.strictObject({
    attribute: z.string(),
    op: z.string().check(z.meta({ description: 'eq, neq, gt, gte, lt, lte, contains, in, exists or not_exists' })),
    value: z.optional(z.union([z.string(), z.number(), z.boolean(), z.array(z.union([z.string(), z.number()]))])),
  }),
  z.strictObject({ event: z.string(), done: z.boolean(), within_days: z.optional(z.number()) }),
]);

/** Who a campaign goes to, frozen at its creation (shared/marketing/campaigns/campaign.ts `CampaignAudience`). */
export const campaignAudienceSchema = z
  .union([
    z.strictObject({ kind: z.literal('ids'), count: z.number() }),
    z.strictObject({ kind: z.literal('all') }),
    z.strictObject({ kind: z.literal('segment'), segment_id: uuidSchema, dynamic: z.optional(z.boolean()), generation: z.optional(z.number()) }),
    z.strictObject({ kind: z.literal('filter'), filter: z.strictObject({ match: z.enum(['all', 'any']), conditions: z.array(filterConditionSchema) }) }),
    z.strictObject({ kind: z.literal('follow_up'), campaign_id: uuidSchema, audience: z.enum(['not_delivered', 'not_opened']) }),
  ])
  .check(
    z.meta({
      id: 'CampaignAudience',
      description:
        'The audience: `ids` (the `recipientIds` given), `all` leads, a `segment` (a dynamic one frozen at its `generation`), a recipient `filter`, or a `follow_up` of an earlier campaign',
    }),
  );

/** Why a campaign is paused: by the caller, or by the reputation guard with the rate it measured. */
export const campaignPauseSchema = z
  .strictObject({
    reason: z.enum(['manual', 'bounce_rate', 'complaint_rate', 'project_paused']),
    rate: z.optional(z.number()),
    sample: z.optional(z.number()),
    at: instantSchema,
  })
  .check(z.meta({ id: 'CampaignPause', description: 'Why the campaign is paused (`manual`, the reputation guard\'s `bounce_rate` or `complaint_rate` with the measured rate and sample, or `project_paused` with its project\'s marketing, resumed with it) and since when' }));

/** The full campaign row of `POST /v1/campaigns` (campaign-presenter.ts `presentCampaign`). */
export const campaignSchema = z
  .strictObject({
    id: uuidSchema,
    name: z.string(),
    subject: z.string(),
    preview_text: z.nullable(z.string()),
    status: campaignStatusSchema,
    template_id: uuidSchema,
    sender_profile_id: uuidSchema,
    total_recipients: z.number(),
    recipient_count_expected: z.nullable(z.number()),
    emails_sent: z.number(),
    emails_failed: z.number(),
    batch_mode: z.boolean(),
    batch_size: z.nullable(z.number()),
    batch_interval_hours: z.number(),
    total_batches: z.nullable(z.number()),
    current_batch: z.nullable(z.number()),
    created_at: instantSchema,
    scheduled_for: maybeInstant,
    started_at: maybeInstant,
    completed_at: maybeInstant,
    next_batch_at: maybeInstant,
    select_all_recipients: z.boolean(),
    send_over_hours: z.nullable(z.number()),
    variable_config: z.nullable(
      z.strictObject({
        defaults: z.optional(z.record(z.string(), z.unknown())),
        mappings: z.optional(z.record(z.string(), z.string())),
      }),
    ),
    utm_campaign: z.string(),
    schedule_type: z.enum(['scheduled', 'delay']),
    audience: campaignAudienceSchema,
    pause: z.nullable(campaignPauseSchema),
  })
  .check(z.meta({ id: 'Campaign', description: 'A campaign\'s full row (part 2): its audience, start and pacing, its state, and its sent and failed counts' }));

/** A campaign as the list and the read show it (campaign-presenter.ts `presentCampaignSummary`). */
export const campaignSummarySchema = z
  .strictObject({
    id: uuidSchema,
    name: z.string(),
    subject: z.string(),
    status: campaignStatusSchema,
    created_at: instantSchema,
    scheduled_for: maybeInstant,
    started_at: maybeInstant,
    completed_at: maybeInstant,
    total_recipients: z.number(),
    emails_sent: z.number(),
    emails_failed: z.number(),
  })
  .check(z.meta({ id: 'CampaignSummary', description: 'A campaign as 4.8\'s list and read show it; the counts come from its counters' }));

/** 4.8's metrics (campaign-presenter.ts `presentMetrics`). */
export const campaignMetricsSchema = z
  .strictObject({ sent: z.number(), delivered: z.number(), opened: z.number(), clicked: z.number(), bounced: z.number(), complained: z.number() })
  .check(z.meta({ id: 'CampaignMetrics', description: 'From the campaign\'s counters: `opened` counts human opens only, `bounced` hard bounces' }));

/** The answer of `POST /v1/campaigns`. */
export const createdCampaignAnswerSchema = z
  .strictObject({ success: z.literal(true), campaign: campaignSchema })
  .check(z.meta({ id: 'CampaignCreated', description: 'The campaign as written, in `initializing`; the engine counts its audience next' }));

/** The `pagination` block of `GET /v1/campaigns`: no `total_pages` (4.8); `next_cursor` reads on past 1,000. */
export const campaignPaginationSchema = z
  .strictObject({ page: z.number(), per_page: z.number(), total: z.number(), total_is_estimate: z.boolean(), next_cursor: z.nullable(z.string()) })
  .check(z.meta({ id: 'CampaignPagination', description: 'The page; `total` counts at most 1,000 entries past it (`total_is_estimate` then says so); `next_cursor` reads on, null at the end' }));

/** The answer of `GET /v1/campaigns`. */
export const campaignListAnswerSchema = z
  .strictObject({ campaigns: z.array(campaignSummarySchema), pagination: campaignPaginationSchema })
  .check(z.meta({ id: 'CampaignList', description: 'The project\'s campaigns, newest first' }));

/** The answer of `GET /v1/campaigns/{id}`. */
export const campaignReadAnswerSchema = z
  .strictObject({ campaign: campaignSummarySchema, metrics: campaignMetricsSchema })
  .check(z.meta({ id: 'CampaignWithMetrics', description: 'A campaign and its metrics' }));

/** The answer of `POST /v1/campaigns/{id}/cancel`. */
export const cancelledCampaignAnswerSchema = z.strictObject({ id: uuidSchema, status: z.literal('cancelled') });

/** The answer of `POST /v1/campaigns/{id}/pause`. */
export const pausedCampaignAnswerSchema = z.strictObject({ id: uuidSchema, status: z.literal('paused'), pause: campaignPauseSchema });

/** The answer of `POST /v1/campaigns/{id}/resume`: `processing` when it had started, `pending` otherwise. */
export const resumedCampaignAnswerSchema = z.strictObject({ id: uuidSchema, status: z.enum(['processing', 'pending']) });

/** 409 of `POST /v1/campaigns` (4.8): a duplicate of a recent campaign (duplicate-campaign.ts). */
export const duplicateCampaignSchema = z
  .strictObject({
    error: z.literal('duplicate_campaign'),
    warning: z.literal('duplicate_campaign'),
    reason: z.enum(['subject_match_60min', 'name_template_24h']),
    message: z.string(),
    existingCampaignId: uuidSchema,
    existingCampaignStatus: campaignStatusSchema,
  })
  .check(
    z.meta({
      id: 'DuplicateCampaign',
      description: 'The same subject within 60 minutes, or the same name and template within 24 hours while not finished: resend with `confirmDuplicate: true` to create it anyway',
    }),
  );

/** 422 of `POST /v1/campaigns`: the sender cannot send yet, or the dynamic segment was never evaluated. */
export const campaignUnprocessableSchema = z.strictObject({ error: z.string(), code: z.enum(['SENDER_NOT_VERIFIED', 'SEGMENT_NOT_EVALUATED']) });

/** 404 of a campaign's routes (manage-campaign.ts): a malformed id, an unknown one and another project's alike. */
export const campaignNotFoundSchema = z
  .strictObject({ error: z.literal('NOT_FOUND'), message: z.literal('Campaign not found') })
  .check(z.meta({ id: 'CampaignNotFound', description: 'No campaign of the project has this id' }));

/** A 409 of a state move: the code as `error`, the state found, and a sentence. */
const refusedMove = <C extends string>(code: C) => z.strictObject({ error: z.literal(code), status: campaignStatusSchema, message: z.string() });

/** A state move that kept losing its race with the engine (or a write that lost one): retry. */
const movedUnderRequest = z.strictObject({ error: z.string() });

/** 409 of cancel: `NOT_CANCELLABLE` (a final state), or a move that lost its race. */
export const notCancellableSchema = z.union([refusedMove('NOT_CANCELLABLE'), movedUnderRequest]);
/** 409 of pause: `NOT_PAUSABLE`, or a move that lost its race. */
export const notPausableSchema = z.union([refusedMove('NOT_PAUSABLE'), movedUnderRequest]);
/** 409 of resume: `NOT_RESUMABLE` (not paused), or a move that lost its race. */
export const notResumableSchema = z.union([refusedMove('NOT_RESUMABLE'), movedUnderRequest]);
