import type { Activity } from '../activity/activity';
import type { ServiceEvent } from '../../platform/core/events';
import type { SuppressionEntry } from './suppression-repository';

/** Builders of the suppression events of part 6 (published only to projects with webhook targets). */

/** email.suppressed: no `is_test`, no `environment`, no `message_id` (part 6). */
export function suppressedEvent(activity: Activity, entry: SuppressionEntry, now: string): ServiceEvent {
  return {
    event: 'email.suppressed',
    timestamp: now,
    project_id: activity.project_id,
    data: {
      email: entry.email,
      activity_id: activity.id,
      email_type: activity.email_type,
      suppressed_at: now,
      suppression_reason: entry.reason,
      suppression_source: entry.source,
      suppression_description: entry.description ?? null,
    },
  };
}

/** suppression.added: the entry's fields; a complaint carries its feedback type instead of the bounce fields. */
export function suppressionAddedEvent(entry: SuppressionEntry, now: string): ServiceEvent {
  const data: Record<string, unknown> = {
    email: entry.email,
    reason: entry.reason,
    source: entry.source,
    description: entry.description ?? null,
    suppressed_at: entry.suppressed_at,
  };
  if (entry.reason === 'complaint') data.complaint_feedback_type = entry.complaint_feedback_type ?? null;
  else Object.assign(data, { bounce_type: entry.bounce_type ?? null, bounce_subtype: entry.bounce_subtype ?? null });
  return { event: 'suppression.added', timestamp: now, project_id: entry.project_id, data };
}

/** suppression.removed. */
export function suppressionRemovedEvent(projectId: string, email: string, removedAt: string, removedBy: string): ServiceEvent {
  return { event: 'suppression.removed', timestamp: removedAt, project_id: projectId, data: { email, removed_at: removedAt, removed_by: removedBy } };
}
