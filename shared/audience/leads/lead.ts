/** A lead as stored (part 2): unique per project by its lowercased email. */
export interface Lead {
  id: string;
  project_id: string;
  /** Trimmed and lowercased: how addresses are compared. */
  email: string;
  /** Custom attributes; `_tags` holds the tag array. */
  data: Record<string, unknown>;
  storeplatform_customer_id: string | null;
  created_at: string;
  updated_at: string;
  /** Bumped by every write; writes are conditional on it. */
  version: number;
  /** Lowercased display name read from `data` (see leadName), for the name search; absent without one. */
  name_lc?: string;
}

/** The reserved `data` key that holds a lead's tags. */
export const TAGS_KEY = '_tags';

/**
 * The name a search on "name" reads: `data.name`, else `data.first_name` and `data.last_name`
 * joined by a space (also `firstName`/`lastName`); lowercased and trimmed, at most 200 characters.
 */
export function leadName(data: Record<string, unknown>): string | undefined {
  const text = (v: unknown) => (typeof v === 'string' ? v.trim() : '');
  const full = text(data.name) || [text(data.first_name ?? data.firstName), text(data.last_name ?? data.lastName)].filter(Boolean).join(' ');
  return full ? full.toLowerCase().slice(0, 200) : undefined;
}

/** The tags of a lead (the `_tags` array, strings only). */
export function tagsOf(data: Record<string, unknown>): string[] {
  const tags = data[TAGS_KEY];
  return Array.isArray(tags) ? tags.filter((t): t is string => typeof t === 'string') : [];
}

/** `data` without the reserved `_tags` key (GET attributes hides it). */
export function withoutTags(data: Record<string, unknown>): Record<string, unknown> {
  const { [TAGS_KEY]: _tags, ...rest } = data;
  return rest;
}

/** Whether a lead's address may get marketing mail: read from the project's suppression list. */
export type MarketingStatus = 'subscribed' | 'unsubscribed' | 'suppressed';

/** The API form of a lead (part 2); single-lead answers add `segment_ids`. */
export function presentLead(lead: Lead, extra: { segmentIds?: string[]; marketingStatus?: MarketingStatus } = {}) {
  return {
    id: lead.id,
    email: lead.email,
    data: lead.data,
    created_at: lead.created_at,
    updated_at: lead.updated_at,
    storeplatform_customer_id: lead.storeplatform_customer_id ?? null,
    ...(extra.marketingStatus ? { marketing_status: extra.marketingStatus } : {}),
    ...(extra.segmentIds ? { segment_ids: extra.segmentIds } : {}),
  };
}
