import type { BatchRecipient } from '../../mail-pipeline/batches/batch';
import { leadName, withoutTags, type Lead } from '../../audience/leads/lead';
import type { Campaign } from './campaign';
import { ownValue } from '../../platform/core/reserved-keys';

/**
 * A lead as a recipient of a campaign's wave: its data (tags left out) as template variables,
 * `variable_config.mappings` (template variable -> lead attribute) over it, `defaults` under it for
 * any variable still empty, and `email` and `name` (the lead's display name) always set.
 */
export function recipientOf(lead: Lead, config: Campaign['variable_config']): BatchRecipient {
  const data: Record<string, unknown> = { ...withoutTags(lead.data) };
  for (const [variable, attribute] of Object.entries(config?.mappings ?? {})) {
    const value = attribute === 'email' ? lead.email : ownValue(lead.data, attribute);
    if (value !== undefined && value !== null && value !== '') data[variable] = value;
  }
  for (const [variable, value] of Object.entries(config?.defaults ?? {})) {
    const current = ownValue(data, variable);
    if (current === undefined || current === null || current === '') data[variable] = value;
  }
  const name = typeof lead.data.name === 'string' && lead.data.name.trim() ? lead.data.name.trim() : displayName(lead);
  data.email = lead.email;
  // No metadata: nothing reads a lead id from the mail's record, and it cost 54 of the record's 1,024 bytes.
  return { email: lead.email, ...(name ? { name } : {}), data };
}

/** `first_name last_name` as written (leadName lowercases for search). */
function displayName(lead: Lead): string | undefined {
  if (!leadName(lead.data)) return undefined;
  const text = (v: unknown) => (typeof v === 'string' ? v.trim() : '');
  return [text(lead.data.first_name ?? lead.data.firstName), text(lead.data.last_name ?? lead.data.lastName)].filter(Boolean).join(' ') || undefined;
}
