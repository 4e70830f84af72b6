/** What a lead's `data` says about it: its name and its tags (`_tags`). */
import type { Schemas } from '../../lib/api';

/** The key under which a lead's tags are kept in its `data`. */
export const TAGS_KEY = '_tags';

/** A lead's name from the usual attributes (`name`, or `first_name` and `last_name`), if any. */
export function leadName(lead: Schemas['Lead']): string | undefined {
  const d = lead.data;
  const text = (v: unknown) => (typeof v === 'string' && v.trim() ? v.trim() : undefined);
  return text(d.name) ?? ([text(d.first_name), text(d.last_name)].filter(Boolean).join(' ') || undefined);
}

/** A lead's tags. */
export function leadTags(lead: Schemas['Lead']): string[] {
  const tags = lead.data[TAGS_KEY];
  return Array.isArray(tags) ? tags.filter((t): t is string => typeof t === 'string') : [];
}

/** A lead's attributes: its `data` without the tags, by name (the stored order is no order). */
export function leadAttributes(lead: Schemas['Lead']): [string, unknown][] {
  return Object.entries(lead.data)
    .filter(([k]) => k !== TAGS_KEY)
    .sort(([a], [b]) => a.localeCompare(b));
}
