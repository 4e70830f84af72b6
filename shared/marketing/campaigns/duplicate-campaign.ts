import { AppError } from '../../platform/core/errors';
import type { Campaign, CampaignStatus } from './campaign';

/** Part 8's duplicate windows. */
export const SUBJECT_WINDOW_MS = 60 * 60_000;
export const NAME_TEMPLATE_WINDOW_MS = 24 * 3_600_000;
/** States in which a same name and template counts as a duplicate (4.8). */
export const NAME_TEMPLATE_STATUSES: readonly CampaignStatus[] = ['pending', 'paused', 'processing', 'initializing'];
/** The most campaigns of the last 24 hours compared: one Query page; a project creating more than this a day is not comparing by hand. */
export const DUPLICATE_SCAN_CAP = 500;

export type DuplicateReason = 'subject_match_60min' | 'name_template_24h';

/**
 * The earlier campaign a new one duplicates, and why, or undefined. `recent` is the project's
 * campaigns of the last 24 hours, newest first. Names and subjects compare case-insensitively
 * (and trimmed). A subject match within 60 minutes is found first, in any state.
 */
export function findDuplicate(
  candidate: { name_lc: string; subject_lc: string; template_id: string },
  recent: readonly Campaign[],
  now: Date,
): { reason: DuplicateReason; existing: Campaign } | undefined {
  const subjectSince = new Date(now.getTime() - SUBJECT_WINDOW_MS).toISOString();
  const nameSince = new Date(now.getTime() - NAME_TEMPLATE_WINDOW_MS).toISOString();
  const bySubject = recent.find((c) => c.created_at >= subjectSince && c.subject_lc === candidate.subject_lc);
  if (bySubject) return { reason: 'subject_match_60min', existing: bySubject };
  const byName = recent.find(
    (c) => c.created_at >= nameSince && c.name_lc === candidate.name_lc && c.template_id === candidate.template_id && NAME_TEMPLATE_STATUSES.includes(c.status),
  );
  return byName ? { reason: 'name_template_24h', existing: byName } : undefined;
}

/** The 409 of 4.8: `{warning: 'duplicate_campaign', reason, message, existingCampaignId, existingCampaignStatus}` (and `error`, as every error answer has). */
export function duplicateCampaignError(found: { reason: DuplicateReason; existing: Campaign }): AppError {
  const message =
    found.reason === 'subject_match_60min'
      ? `A campaign with the same subject was created within the last 60 minutes (${found.existing.id}); resend with confirmDuplicate: true to create it anyway`
      : `A campaign with the same name and template was created within the last 24 hours and is ${found.existing.status} (${found.existing.id}); resend with confirmDuplicate: true to create it anyway`;
  return new AppError(409, 'duplicate_campaign', 'duplicate_campaign', {
    warning: 'duplicate_campaign',
    reason: found.reason,
    message,
    existingCampaignId: found.existing.id,
    existingCampaignStatus: found.existing.status,
  });
}

/** The form names and subjects are compared in. */
export const comparable = (text: string): string => text.trim().toLowerCase();
