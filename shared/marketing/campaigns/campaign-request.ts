import * as z from '../../platform/core/zod';
import { audienceFilterSchema, filterOf, parseAudienceFilter, type AudienceFilter } from '../../audience/leads/audience-filter';
import { storableProblem } from '../../audience/leads/lead-input';
import { badRequest } from '../../platform/core/errors';
import { parseRequest } from '../../platform/core/validate';

/**
 * The body of `POST /v1/campaigns` (4.8), checked. Part 7's four messages come first, in part 7's
 * order; the rules the spec leaves open follow (docs/campaigns-api.md, docs/decisions.md).
 */
export interface CampaignRequest {
  name: string;
  template: { kind: 'uuid'; id: string } | { kind: 'internal'; internalId: number };
  senderProfileId: string;
  audience:
    | { kind: 'ids'; ids: string[] }
    | { kind: 'all'; filter?: AudienceFilter }
    | { kind: 'segment'; segmentId: string }
    | { kind: 'follow_up'; campaignId: string; audience: 'not_delivered' | 'not_opened' };
  selectAllRecipients: boolean;
  recipientCount?: number;
  subject?: string;
  previewText?: string;
  /** When to start: an instant, a delay from now, or at once. */
  start: { kind: 'now' } | { kind: 'at'; at: Date } | { kind: 'delay'; amount: number; unit: DelayUnit };
  batchMode: boolean;
  batchSize?: number;
  batchIntervalHours: number;
  sendOverHours?: number;
  variableConfig?: { defaults?: Record<string, string | number | boolean>; mappings?: Record<string, string> };
  confirmDuplicate: boolean;
}

export type DelayUnit = 'minutes' | 'hours' | 'days';

/** Part 8: recipients per campaign. */
export const MAX_CAMPAIGN_RECIPIENTS = 10_000_000;
/** The furthest ahead a start may be (a scheduled or delayed start). */
export const MAX_START_AHEAD_DAYS = 365;
/** Bounds of the pacing settings, in hours: an interval or a spread of a quarter hour to 30 days. */
export const MIN_PACING_HOURS = 0.25;
export const MAX_PACING_HOURS = 720;
const MAX_NAME = 200;
const MAX_SUBJECT = 998;
const MAX_PREVIEW = 500;
const MAX_VARIABLES = 100;
const MAX_VARIABLE_NAME = 200;
const DEFAULT_BATCH_INTERVAL_HOURS = 24;
const DELAY_MS: Record<DelayUnit, number> = { minutes: 60_000, hours: 3_600_000, days: 86_400_000 };

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
// An ISO 8601 date-time with a zone (Z or an offset): a time without one would be read in the server's zone.
const ISO_INSTANT = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}:?\d{2})$/i;
/** Lead fields a mapping may name besides the keys of the lead's `data`. */
export const LEAD_FIELDS = ['email', 'name'] as const;

const MISSING = 'Missing required fields: name, templateId, senderProfileId';
const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const nonEmptyString = (v: unknown): v is string => typeof v === 'string' && v.trim() !== '';
const isNumber = (v: unknown): v is number => typeof v === 'number' && Number.isFinite(v);
const isWhole = (v: unknown, min: number, max: number): v is number => typeof v === 'number' && Number.isInteger(v) && v >= min && v <= max;
const given = (v: unknown) => v !== undefined && v !== null;

type Body = Record<string, unknown>;
/** The message of a body's first problem, or undefined. */
type Problem = string | undefined;

const uuidProblem = (value: unknown, field: string): Problem => (typeof value !== 'string' || !UUID.test(value.trim()) ? `${field} must be a uuid` : undefined);

/** Part 7's four checks, in part 7's order: they answer before any other. */
function part7Problem(b: Body): Problem {
  const hasTemplate = nonEmptyString(b.templateId) || b.templateInternalId !== undefined;
  if (!nonEmptyString(b.name) || !hasTemplate || !nonEmptyString(b.senderProfileId)) return MISSING;
  if (b.selectAllRecipients !== undefined && typeof b.selectAllRecipients !== 'boolean') return 'selectAllRecipients must be true or false';
  const selectAll = b.selectAllRecipients === true;
  const ids = b.recipientIds;
  if (!selectAll && b.segmentId === undefined && b.followUp === undefined && (!given(ids) || (Array.isArray(ids) && ids.length === 0))) {
    return 'recipientIds is required when selectAllRecipients is false';
  }
  if (selectAll && !given(b.recipientCount)) return 'recipientCount is required when selectAllRecipients is true';
  if (given(b.scheduledFor) && (typeof b.scheduledFor !== 'string' || !ISO_INSTANT.test(b.scheduledFor.trim()) || Number.isNaN(Date.parse(b.scheduledFor)))) {
    return 'scheduledFor must be a string (ISO timestamp)';
  }
}

function templateProblem(b: Body): Problem {
  if (b.templateId !== undefined && b.templateInternalId !== undefined) return 'Give templateId or templateInternalId, not both';
  if (b.templateId !== undefined) return uuidProblem(b.templateId, 'templateId');
  if (internalIdOf(b.templateInternalId) === undefined) return 'templateInternalId must be a positive whole number';
}

/** A template's internal id, given as a number or as digits. */
function internalIdOf(value: unknown): number | undefined {
  const n = typeof value === 'string' && /^\d{1,15}$/.test(value.trim()) ? Number(value) : value;
  return typeof n === 'number' && Number.isSafeInteger(n) && n >= 1 ? n : undefined;
}

function audienceProblem(b: Body): Problem {
  const selectAll = b.selectAllRecipients === true;
  const sources = [given(b.recipientIds), selectAll, b.segmentId !== undefined, b.followUp !== undefined].filter(Boolean).length;
  if (sources > 1) return 'Give one audience: recipientIds, selectAllRecipients: true, segmentId or followUp';
  if (b.recipientFilter !== undefined && !selectAll) return 'recipientFilter is only allowed with selectAllRecipients: true';
  if (selectAll) return b.recipientFilter === undefined ? undefined : filterProblem(b.recipientFilter);
  if (b.segmentId !== undefined) return uuidProblem(b.segmentId, 'segmentId');
  if (b.followUp !== undefined) {
    const f = b.followUp;
    if (!isObject(f)) return 'followUp must be an object {campaignId, audience}';
    if (f.audience !== 'not_delivered' && f.audience !== 'not_opened') return 'followUp.audience must be "not_delivered" or "not_opened"';
    return uuidProblem(f.campaignId, 'followUp.campaignId');
  }
  const ids = b.recipientIds;
  if (!Array.isArray(ids)) return 'recipientIds must be an array of lead ids (uuids)';
  if (ids.length > MAX_CAMPAIGN_RECIPIENTS) return `recipientIds accepts at most ${MAX_CAMPAIGN_RECIPIENTS} ids`;
  const bad = ids.findIndex((id) => typeof id !== 'string' || !UUID.test(id));
  if (bad >= 0) return `recipientIds[${bad}] must be a lead id (uuid)`;
}

/** The recipient filter's first problem, named by its place (`recipientFilter.conditions[0].op ...`), from its own schema. */
function filterProblem(value: unknown): Problem {
  try {
    parseAudienceFilter(value, 'recipientFilter');
  } catch (error) {
    return (error as Error).message;
  }
}

function textProblem(value: unknown, field: string, max: number): Problem {
  if (!given(value)) return undefined;
  if (typeof value !== 'string') return `${field} must be a string`;
  if (value.length > max) return `${field} must be at most ${max} characters`;
  if (/[\r\n]/.test(value) && field === 'subject') return 'subject may not contain line breaks';
}

const flagProblem = (value: unknown, field: string): Problem => (given(value) && typeof value !== 'boolean' ? `${field} must be true or false` : undefined);

function startProblem(b: Body): Problem {
  const type = b.scheduleType ?? 'scheduled';
  if (type !== 'scheduled' && type !== 'delay') return 'scheduleType must be "scheduled" or "delay"';
  if (type === 'scheduled') return b.delayAmount !== undefined || b.delayUnit !== undefined ? 'delayAmount and delayUnit need scheduleType "delay"' : undefined;
  if (typeof b.scheduledFor === 'string') return 'scheduledFor is not allowed with scheduleType "delay"';
  if (!isNumber(b.delayAmount) || b.delayAmount <= 0) return 'delayAmount must be a positive number with scheduleType "delay"';
  if (b.delayUnit !== 'minutes' && b.delayUnit !== 'hours' && b.delayUnit !== 'days') return 'delayUnit must be "minutes", "hours" or "days" with scheduleType "delay"';
}

const hoursProblem = (value: unknown, field: string): Problem =>
  given(value) && (!isNumber(value) || value < MIN_PACING_HOURS || value > MAX_PACING_HOURS) ? `${field} must be a number of hours from ${MIN_PACING_HOURS} to ${MAX_PACING_HOURS}` : undefined;

function pacingProblem(b: Body): Problem {
  const problem = flagProblem(b.batchMode, 'batchMode') ?? hoursProblem(b.batchIntervalHours, 'batchIntervalHours') ?? hoursProblem(b.sendOverHours, 'sendOverHours');
  if (problem) return problem;
  const batchMode = b.batchMode === true;
  if (given(b.batchSize)) {
    if (!batchMode) return 'batchSize needs batchMode: true';
    if (!isWhole(b.batchSize, 1, MAX_CAMPAIGN_RECIPIENTS)) return `batchSize must be a whole number from 1 to ${MAX_CAMPAIGN_RECIPIENTS}`;
  }
  if (batchMode && !given(b.batchSize)) return 'batchSize is required when batchMode is true';
  // Two pacings at once would contradict each other: batches at fixed intervals, or an even spread.
  if (batchMode && given(b.sendOverHours)) return 'sendOverHours cannot be combined with batchMode';
}

function variableObjectProblem(value: unknown, field: string): Problem {
  if (!isObject(value)) return `${field} must be an object`;
  const keys = Object.keys(value);
  if (keys.length > MAX_VARIABLES) return `${field} accepts at most ${MAX_VARIABLES} variables`;
  if (keys.some((key) => key.trim() === '' || key.length > MAX_VARIABLE_NAME)) return `${field} has an empty or over-long variable name`;
}

const isScalar = (v: unknown) => (typeof v === 'string' && v.length <= 1000) || isNumber(v) || typeof v === 'boolean';
const isLeadField = (v: unknown) => typeof v === 'string' && v.trim() !== '' && v.length <= MAX_VARIABLE_NAME;

function variableConfigProblem(value: unknown): Problem {
  if (!given(value)) return undefined;
  if (!isObject(value)) return 'variableConfig must be an object {defaults, mappings}';
  if (given(value.defaults)) {
    const problem = variableObjectProblem(value.defaults, 'variableConfig.defaults');
    if (problem) return problem;
    const bad = Object.entries(value.defaults as Body).find(([, v]) => !isScalar(v));
    if (bad) return `variableConfig.defaults.${bad[0]} must be a string, number or boolean`;
    // Stored with the campaign: a number DynamoDB cannot hold would fail that write.
    const outOfRange = Object.entries(value.defaults as Body).find(([, v]) => storableProblem(v) !== undefined);
    if (outOfRange) return `variableConfig.defaults.${outOfRange[0]} ${storableProblem(outOfRange[1])}`;
  }
  if (given(value.mappings)) {
    const problem = variableObjectProblem(value.mappings, 'variableConfig.mappings');
    if (problem) return problem;
    const bad = Object.entries(value.mappings as Body).find(([, v]) => !isLeadField(v));
    if (bad) return `variableConfig.mappings.${bad[0]} must name a lead field: email, name or a key of the lead's data`;
  }
}

/** Every rule of the body in its order: part 7's four, then the fields as 4.8 lists them. */
const rules: readonly ((b: Body) => Problem)[] = [
  part7Problem,
  (b) => ((b.name as string).trim().length > MAX_NAME ? `name must be at most ${MAX_NAME} characters` : undefined),
  templateProblem,
  (b) => uuidProblem(b.senderProfileId, 'senderProfileId'),
  audienceProblem,
  (b) => (given(b.recipientCount) && !isWhole(b.recipientCount, 0, MAX_CAMPAIGN_RECIPIENTS) ? `recipientCount must be a whole number from 0 to ${MAX_CAMPAIGN_RECIPIENTS}` : undefined),
  (b) => textProblem(b.subject, 'subject', MAX_SUBJECT),
  (b) => textProblem(b.previewText, 'previewText', MAX_PREVIEW),
  startProblem,
  pacingProblem,
  (b) => variableConfigProblem(b.variableConfig),
  (b) => flagProblem(b.confirmDuplicate, 'confirmDuplicate'),
];

// Ids are read trimmed and in any case (the body's check), lead ids in recipientIds untrimmed.
const uuidSchema = z.string().check(z.meta({ format: 'uuid' }));
const leadIdSchema = z.string().check(z.regex(UUID), z.meta({ format: 'uuid' }));
const hoursSchema = z.nullish(z.number().check(z.gte(MIN_PACING_HOURS), z.lte(MAX_PACING_HOURS)));
// z.int() aborts its parent's checks on a fraction (an explicit abort), which would silence the body's rules: a whole number is said in metadata.
const wholeNumber = () => z.number().check(z.meta({ type: 'integer' }));
const countSchema = (min: number) => z.nullish(wholeNumber().check(z.gte(min), z.lte(MAX_CAMPAIGN_RECIPIENTS)));

/**
 * The body of `POST /v1/campaigns` (4.8), in 4.8's order. The field schemas describe it (the OpenAPI
 * document, the typed client); the body's one check holds the rules in their order, part 7's four
 * first, and refuses whatever a field schema would, so a field's own issue never answers first.
 */
export const campaignBodySchema = z
  .object(
    {
      name: z.string().check(z.meta({ maxLength: MAX_NAME, description: 'At most 200 characters once trimmed' })),
      templateId: z.optional(uuidSchema),
      senderProfileId: uuidSchema,
      recipientIds: z.nullish(z.array(leadIdSchema).check(z.maxLength(MAX_CAMPAIGN_RECIPIENTS))),
      selectAllRecipients: z.optional(z.boolean()),
      recipientCount: countSchema(0),
      recipientFilter: z.optional(audienceFilterSchema),
      subject: z.nullish(z.string().check(z.maxLength(MAX_SUBJECT))),
      previewText: z.nullish(z.string().check(z.maxLength(MAX_PREVIEW))),
      templateInternalId: z.optional(z.union([wholeNumber().check(z.positive()), z.string().check(z.regex(/^\s*\d{1,15}\s*$/))])),
      scheduledFor: z.nullish(z.string().check(z.meta({ format: 'date-time', description: 'An ISO 8601 instant with its zone (Z or an offset)' }))),
      scheduleType: z.nullish(z.enum(['scheduled', 'delay'])),
      delayAmount: z.optional(z.number().check(z.positive())),
      delayUnit: z.optional(z.enum(['minutes', 'hours', 'days'])),
      batchMode: z.nullish(z.boolean()),
      batchSize: countSchema(1),
      batchIntervalHours: hoursSchema,
      sendOverHours: hoursSchema,
      variableConfig: z.nullish(
        z.object({
          defaults: z.nullish(z.record(z.string(), z.union([z.string().check(z.maxLength(1000)), z.number(), z.boolean()]))),
          mappings: z.nullish(z.record(z.string(), z.string().check(z.minLength(1), z.maxLength(MAX_VARIABLE_NAME)))),
        }),
      ),
      confirmDuplicate: z.nullish(z.boolean()),
      // Extensions of 4.8 (docs/campaigns-api.md): the other audiences.
      segmentId: z.optional(uuidSchema),
      followUp: z.optional(z.object({ campaignId: uuidSchema, audience: z.enum(['not_delivered', 'not_opened']) })),
    },
    { error: MISSING },
  )
  .check(
    z.superRefine(
      (b: Body, ctx) => {
        const problem = rules.reduce<Problem>((found, rule) => found ?? rule(b), undefined);
        if (problem) ctx.issues.push({ code: 'custom', input: b, message: problem });
      },
      { when: ({ value }) => isObject(value) },
    ),
  );

/** A `POST /v1/campaigns` body its schema accepted. */
export type CampaignBody = z.output<typeof campaignBodySchema>;

/** Checks a `POST /v1/campaigns` body; every fault is a 400 with a message naming the field. */
export function parseCampaignRequest(body: unknown): CampaignRequest {
  return toCampaignRequest(parseRequest(campaignBodySchema, isObject(body) ? body : {}));
}

/** The service's input from a body the schema accepted: names and ids trimmed, defaults applied, the audience and start read. */
export function toCampaignRequest(parsed: CampaignBody): CampaignRequest {
  const b: Body = parsed;
  const selectAll = b.selectAllRecipients === true;
  const batchMode = b.batchMode === true;
  return {
    name: (b.name as string).trim(),
    template: b.templateId !== undefined ? { kind: 'uuid', id: idOf(b.templateId) } : { kind: 'internal', internalId: internalIdOf(b.templateInternalId)! },
    senderProfileId: idOf(b.senderProfileId),
    audience: audienceOf(b, selectAll),
    selectAllRecipients: selectAll,
    recipientCount: given(b.recipientCount) ? (b.recipientCount as number) : undefined,
    subject: textOf(b.subject),
    previewText: textOf(b.previewText),
    start: startOf(b),
    batchMode,
    batchSize: given(b.batchSize) ? (b.batchSize as number) : undefined,
    batchIntervalHours: given(b.batchIntervalHours) ? (b.batchIntervalHours as number) : DEFAULT_BATCH_INTERVAL_HOURS,
    sendOverHours: given(b.sendOverHours) ? (b.sendOverHours as number) : undefined,
    variableConfig: variableConfigOf(b.variableConfig),
    confirmDuplicate: b.confirmDuplicate === true,
  };
}

/** The instant a start names, given the request's time; 400 when it is past or too far ahead. */
export function startInstant(start: CampaignRequest['start'], now: Date): Date | undefined {
  if (start.kind === 'now') return undefined;
  const at = start.kind === 'at' ? start.at : new Date(now.getTime() + start.amount * DELAY_MS[start.unit]);
  if (start.kind === 'at' && at.getTime() <= now.getTime()) throw badRequest('scheduledFor must be in the future');
  if (at.getTime() > now.getTime() + MAX_START_AHEAD_DAYS * 86_400_000) throw badRequest(`The campaign must start within ${MAX_START_AHEAD_DAYS} days`);
  return at;
}

const idOf = (value: unknown) => (value as string).trim().toLowerCase();
const textOf = (value: unknown) => (typeof value === 'string' && value.trim() !== '' ? value : undefined);

function audienceOf(b: Body, selectAll: boolean): CampaignRequest['audience'] {
  if (selectAll) return { kind: 'all', ...(b.recipientFilter !== undefined ? { filter: filterOf(b.recipientFilter as z.output<typeof audienceFilterSchema>) } : {}) };
  if (b.segmentId !== undefined) return { kind: 'segment', segmentId: idOf(b.segmentId) };
  if (b.followUp !== undefined) {
    const f = b.followUp as { campaignId: string; audience: 'not_delivered' | 'not_opened' };
    return { kind: 'follow_up', campaignId: idOf(f.campaignId), audience: f.audience };
  }
  // Deduplicated, in their first order.
  return { kind: 'ids', ids: [...new Set((b.recipientIds as string[]).map((id) => id.toLowerCase()))] };
}

function startOf(b: Body): CampaignRequest['start'] {
  if (b.scheduleType === 'delay') return { kind: 'delay', amount: b.delayAmount as number, unit: b.delayUnit as DelayUnit };
  return typeof b.scheduledFor === 'string' ? { kind: 'at', at: new Date(b.scheduledFor) } : { kind: 'now' };
}

function variableConfigOf(value: unknown): CampaignRequest['variableConfig'] {
  if (!isObject(value)) return undefined;
  return {
    ...(given(value.defaults) ? { defaults: value.defaults as Record<string, string | number | boolean> } : {}),
    ...(given(value.mappings) ? { mappings: value.mappings as Record<string, string> } : {}),
  };
}
