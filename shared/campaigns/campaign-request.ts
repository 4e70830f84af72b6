import { parseAudienceFilter, type AudienceFilter } from '../audience/audience-filter';
import { badRequest } from '../errors';

/**
 * The body of `POST /v1/campaigns` (4.8), checked. Part 7's four messages come first, in part 7's
 * order; the rules the spec leaves open follow (README "Campaigns", docs/decisions.md).
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

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const nonEmptyString = (v: unknown): v is string => typeof v === 'string' && v.trim() !== '';

/** Checks a `POST /v1/campaigns` body; every fault is a 400 with a message naming the field. */
export function parseCampaignRequest(body: unknown): CampaignRequest {
  const b = isObject(body) ? body : {};
  const hasTemplate = nonEmptyString(b.templateId) || b.templateInternalId !== undefined;
  if (!nonEmptyString(b.name) || !hasTemplate || !nonEmptyString(b.senderProfileId)) throw badRequest('Missing required fields: name, templateId, senderProfileId');

  if (b.selectAllRecipients !== undefined && typeof b.selectAllRecipients !== 'boolean') throw badRequest('selectAllRecipients must be true or false');
  const selectAll = b.selectAllRecipients === true;
  const segmentOrFollowUp = b.segmentId !== undefined || b.followUp !== undefined;
  const ids = b.recipientIds;
  if (!selectAll && !segmentOrFollowUp && (ids === undefined || ids === null || (Array.isArray(ids) && ids.length === 0))) {
    throw badRequest('recipientIds is required when selectAllRecipients is false');
  }
  if (selectAll && (b.recipientCount === undefined || b.recipientCount === null)) throw badRequest('recipientCount is required when selectAllRecipients is true');
  if (b.scheduledFor !== undefined && b.scheduledFor !== null && (typeof b.scheduledFor !== 'string' || !ISO_INSTANT.test(b.scheduledFor.trim()) || Number.isNaN(Date.parse(b.scheduledFor)))) {
    throw badRequest('scheduledFor must be a string (ISO timestamp)');
  }

  const name = b.name.trim();
  if (name.length > MAX_NAME) throw badRequest(`name must be at most ${MAX_NAME} characters`);
  return {
    name,
    template: parseTemplateRef(b.templateId, b.templateInternalId),
    senderProfileId: parseUuid(b.senderProfileId, 'senderProfileId'),
    audience: parseAudience(b, selectAll),
    selectAllRecipients: selectAll,
    recipientCount: parseRecipientCount(b.recipientCount),
    subject: optionalText(b.subject, 'subject', MAX_SUBJECT),
    previewText: optionalText(b.previewText, 'previewText', MAX_PREVIEW),
    start: parseStart(b),
    ...parsePacing(b),
    variableConfig: parseVariableConfig(b.variableConfig),
    confirmDuplicate: parseFlag(b.confirmDuplicate, 'confirmDuplicate'),
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

function parseUuid(value: unknown, field: string): string {
  if (typeof value !== 'string' || !UUID.test(value.trim())) throw badRequest(`${field} must be a uuid`);
  return value.trim().toLowerCase();
}

function parseTemplateRef(templateId: unknown, internalId: unknown): CampaignRequest['template'] {
  if (templateId !== undefined && internalId !== undefined) throw badRequest('Give templateId or templateInternalId, not both');
  if (templateId !== undefined) return { kind: 'uuid', id: parseUuid(templateId, 'templateId') };
  const n = typeof internalId === 'string' && /^\d{1,15}$/.test(internalId.trim()) ? Number(internalId) : internalId;
  if (typeof n !== 'number' || !Number.isSafeInteger(n) || n < 1) throw badRequest('templateInternalId must be a positive whole number');
  return { kind: 'internal', internalId: n };
}

function parseAudience(b: Record<string, unknown>, selectAll: boolean): CampaignRequest['audience'] {
  const sources = [b.recipientIds !== undefined && b.recipientIds !== null, selectAll, b.segmentId !== undefined, b.followUp !== undefined].filter(Boolean).length;
  if (sources > 1) throw badRequest('Give one audience: recipientIds, selectAllRecipients: true, segmentId or followUp');
  if (b.recipientFilter !== undefined && !selectAll) throw badRequest('recipientFilter is only allowed with selectAllRecipients: true');
  if (selectAll) return { kind: 'all', ...(b.recipientFilter !== undefined ? { filter: parseAudienceFilter(b.recipientFilter, 'recipientFilter') } : {}) };
  if (b.segmentId !== undefined) return { kind: 'segment', segmentId: parseUuid(b.segmentId, 'segmentId') };
  if (b.followUp !== undefined) {
    const f = b.followUp;
    if (!isObject(f)) throw badRequest('followUp must be an object {campaignId, audience}');
    if (f.audience !== 'not_delivered' && f.audience !== 'not_opened') throw badRequest('followUp.audience must be "not_delivered" or "not_opened"');
    return { kind: 'follow_up', campaignId: parseUuid(f.campaignId, 'followUp.campaignId'), audience: f.audience };
  }
  return { kind: 'ids', ids: parseRecipientIds(b.recipientIds) };
}

/** Lead ids, each a uuid, deduplicated in their first order. */
function parseRecipientIds(value: unknown): string[] {
  if (!Array.isArray(value)) throw badRequest('recipientIds must be an array of lead ids (uuids)');
  if (value.length > MAX_CAMPAIGN_RECIPIENTS) throw badRequest(`recipientIds accepts at most ${MAX_CAMPAIGN_RECIPIENTS} ids`);
  const seen = new Set<string>();
  value.forEach((id, i) => {
    if (typeof id !== 'string' || !UUID.test(id)) throw badRequest(`recipientIds[${i}] must be a lead id (uuid)`);
    seen.add(id.toLowerCase());
  });
  return [...seen];
}

function parseRecipientCount(value: unknown): number | undefined {
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'number' || !Number.isInteger(value) || value < 0 || value > MAX_CAMPAIGN_RECIPIENTS) {
    throw badRequest(`recipientCount must be a whole number from 0 to ${MAX_CAMPAIGN_RECIPIENTS}`);
  }
  return value;
}

function optionalText(value: unknown, field: string, max: number): string | undefined {
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'string') throw badRequest(`${field} must be a string`);
  if (value.length > max) throw badRequest(`${field} must be at most ${max} characters`);
  if (/[\r\n]/.test(value) && field === 'subject') throw badRequest('subject may not contain line breaks');
  return value.trim() === '' ? undefined : value;
}

function parseFlag(value: unknown, field: string): boolean {
  if (value === undefined || value === null) return false;
  if (typeof value !== 'boolean') throw badRequest(`${field} must be true or false`);
  return value;
}

function parseStart(b: Record<string, unknown>): CampaignRequest['start'] {
  const type = b.scheduleType ?? 'scheduled';
  if (type !== 'scheduled' && type !== 'delay') throw badRequest('scheduleType must be "scheduled" or "delay"');
  const scheduledFor = typeof b.scheduledFor === 'string' ? new Date(b.scheduledFor) : undefined;
  if (type === 'scheduled') {
    if (b.delayAmount !== undefined || b.delayUnit !== undefined) throw badRequest('delayAmount and delayUnit need scheduleType "delay"');
    return scheduledFor ? { kind: 'at', at: scheduledFor } : { kind: 'now' };
  }
  if (scheduledFor) throw badRequest('scheduledFor is not allowed with scheduleType "delay"');
  const amount = b.delayAmount;
  if (typeof amount !== 'number' || !Number.isFinite(amount) || amount <= 0) throw badRequest('delayAmount must be a positive number with scheduleType "delay"');
  if (b.delayUnit !== 'minutes' && b.delayUnit !== 'hours' && b.delayUnit !== 'days') throw badRequest('delayUnit must be "minutes", "hours" or "days" with scheduleType "delay"');
  return { kind: 'delay', amount, unit: b.delayUnit };
}

function hours(value: unknown, field: string, min: number): number {
  if (typeof value !== 'number' || !Number.isFinite(value) || value < min || value > MAX_PACING_HOURS) {
    throw badRequest(`${field} must be a number of hours from ${min} to ${MAX_PACING_HOURS}`);
  }
  return value;
}

function parsePacing(b: Record<string, unknown>): Pick<CampaignRequest, 'batchMode' | 'batchSize' | 'batchIntervalHours' | 'sendOverHours'> {
  const batchMode = parseFlag(b.batchMode, 'batchMode');
  const batchIntervalHours = b.batchIntervalHours === undefined || b.batchIntervalHours === null ? DEFAULT_BATCH_INTERVAL_HOURS : hours(b.batchIntervalHours, 'batchIntervalHours', MIN_PACING_HOURS);
  const sendOverHours = b.sendOverHours === undefined || b.sendOverHours === null ? undefined : hours(b.sendOverHours, 'sendOverHours', MIN_PACING_HOURS);
  let batchSize: number | undefined;
  if (b.batchSize !== undefined && b.batchSize !== null) {
    if (!batchMode) throw badRequest('batchSize needs batchMode: true');
    if (typeof b.batchSize !== 'number' || !Number.isInteger(b.batchSize) || b.batchSize < 1 || b.batchSize > MAX_CAMPAIGN_RECIPIENTS) {
      throw badRequest(`batchSize must be a whole number from 1 to ${MAX_CAMPAIGN_RECIPIENTS}`);
    }
    batchSize = b.batchSize;
  }
  if (batchMode && batchSize === undefined) throw badRequest('batchSize is required when batchMode is true');
  // Two pacings at once would contradict each other: batches at fixed intervals, or an even spread.
  if (batchMode && sendOverHours !== undefined) throw badRequest('sendOverHours cannot be combined with batchMode');
  return { batchMode, batchSize, batchIntervalHours, sendOverHours };
}

function parseVariableConfig(value: unknown): CampaignRequest['variableConfig'] {
  if (value === undefined || value === null) return undefined;
  if (!isObject(value)) throw badRequest('variableConfig must be an object {defaults, mappings}');
  const config: NonNullable<CampaignRequest['variableConfig']> = {};
  if (value.defaults !== undefined && value.defaults !== null) {
    const defaults = variableObject(value.defaults, 'variableConfig.defaults');
    for (const [key, v] of Object.entries(defaults)) {
      const scalar = (typeof v === 'string' && v.length <= 1000) || (typeof v === 'number' && Number.isFinite(v)) || typeof v === 'boolean';
      if (!scalar) throw badRequest(`variableConfig.defaults.${key} must be a string, number or boolean`);
    }
    config.defaults = defaults as Record<string, string | number | boolean>;
  }
  if (value.mappings !== undefined && value.mappings !== null) {
    const mappings = variableObject(value.mappings, 'variableConfig.mappings');
    for (const [key, v] of Object.entries(mappings)) {
      if (typeof v !== 'string' || v.trim() === '' || v.length > MAX_VARIABLE_NAME) {
        throw badRequest(`variableConfig.mappings.${key} must name a lead field: email, name or a key of the lead's data`);
      }
    }
    config.mappings = mappings as Record<string, string>;
  }
  return config;
}

function variableObject(value: unknown, field: string): Record<string, unknown> {
  if (!isObject(value)) throw badRequest(`${field} must be an object`);
  const keys = Object.keys(value);
  if (keys.length > MAX_VARIABLES) throw badRequest(`${field} accepts at most ${MAX_VARIABLES} variables`);
  for (const key of keys) if (key.trim() === '' || key.length > MAX_VARIABLE_NAME) throw badRequest(`${field} has an empty or over-long variable name`);
  return value;
}
