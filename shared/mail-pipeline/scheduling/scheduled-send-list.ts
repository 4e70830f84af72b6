import * as z from '../../platform/core/zod';
import type { ProjectCaller } from '../../platform/auth/authenticate';
import { fromItem as activityOfItem } from '../activity/activity-repository';
import type { Activity } from '../activity/activity';
import type { BoundedTotal, PageRequest } from '../../platform/http/pagination';
import { readShardedPage } from '../../platform/store/sharded-list';
import { batchGetAll } from '../../platform/store/batch-get';
import type { Db } from '../../platform/store/client';
import { activityKey, scheduledListPartitions, scheduledListSortKey } from '../../platform/store/keys';
import { deriveScheduledStatus, presentScheduledSend, type ScheduledSendResource, type ScheduledSendStatus } from './scheduled-send';
import { getScheduledSends } from './scheduled-send-repository';

/** The statuses the list filters on: those the API shows (`sent` is derived from the mail's activity). */
export const SCHEDULED_LIST_STATUSES: readonly ScheduledSendStatus[] = ['pending', 'processing', 'sent', 'failed', 'cancelled'];

/** A text `new Date` reads as an instant (ISO 8601). */
const isInstant = (value: string): boolean => !Number.isNaN(new Date(value).getTime());
const instant = (name: string, description: string) =>
  z.optional(z.string().check(z.refine((v) => v === '' || isInstant(v), `${name} must be an ISO 8601 timestamp`), z.meta({ description, examples: ['2026-11-27T00:00:00Z'] })));

/** The filters of `GET /v1/scheduled-sends`, in the order they are checked; an empty value filters nothing. */
export const scheduledListFilterFields = {
  status: z.optional(
    z.string().check(
      z.refine((v) => v === '' || SCHEDULED_LIST_STATUSES.includes(v as ScheduledSendStatus), `status must be one of ${SCHEDULED_LIST_STATUSES.join(', ')}`),
      z.meta({ description: 'Only sends in this status: pending, processing, sent, failed or cancelled; `pending` lists soonest first', examples: ['pending'] }),
    ),
  ),
  from: instant('from', 'Only sends scheduled at or after this instant'),
  to: instant('to', 'Only sends scheduled at or before this instant'),
};

/** `from` after `to` is refused, after each field's own problem. */
export const fromNotAfterTo = z.refine<{ from?: string; to?: string }>((q) => !(q.from && q.to && new Date(q.from) > new Date(q.to)), {
  message: 'from must not be after to',
  when: (payload) => payload.issues.length === 0,
});

export interface ScheduledListFilters {
  status?: ScheduledSendStatus;
  /** ISO UTC, inclusive. */
  from?: string;
  to?: string;
}

/** The filters from a query the schema accepted: times as ISO UTC. */
export function toScheduledListFilters(q: { status?: string; from?: string; to?: string }): ScheduledListFilters {
  return {
    ...(q.status ? { status: q.status as ScheduledSendStatus } : {}),
    ...(q.from ? { from: new Date(q.from).toISOString() } : {}),
    ...(q.to ? { to: new Date(q.to).toISOString() } : {}),
  };
}

export interface ScheduledSendPage extends BoundedTotal {
  data: ScheduledSendResource[];
}

/**
 * `GET /v1/scheduled-sends`: the caller's project's sends in the caller's mode, by `scheduled_for`:
 * pending ones soonest first (from their own sparse index, exactly), every other view latest first.
 * A status other than `pending` is checked on the sends themselves (a fired send's status comes
 * from its activity), so those pages read at most FILTERED_READS_PER_ENTRY entries per entry shown.
 */
export async function listScheduledSends(db: Db, caller: ProjectCaller, filters: ScheduledListFilters, page: PageRequest, after?: string): Promise<ScheduledSendPage> {
  const pending = filters.status === 'pending';
  const partitions = pending ? scheduledListPartitions.pending(caller.project.id, caller.mode) : scheduledListPartitions.all(caller.project.id, caller.mode);
  const wanted = filters.status;
  const listed = await readShardedPage<ScheduledSendResource>(db, {
    partitions,
    ascending: pending,
    // Sort keys are `<scheduled_for>#<id>`: the window's end takes every id of its last instant.
    ...(filters.from ? { lower: filters.from } : {}),
    ...(filters.to ? { upper: scheduledListSortKey(filters.to, '~') } : {}),
    page,
    after,
    load: (entries) => loadResources(db, entries.map((e) => String(e.pk).slice('SCHED#'.length))),
    // The pending index serves its filter; a send claimed since it was read shows its new status.
    ...(wanted && !pending ? { keep: (send: ScheduledSendResource) => send.status === wanted } : {}),
  });
  const { rows, ...total } = listed;
  return { data: rows, ...total };
}

/** The sends of `ids` as the API shows them, each fired one's status refined by its activity. */
async function loadResources(db: Db, ids: readonly string[]): Promise<(ScheduledSendResource | undefined)[]> {
  const sends = await getScheduledSends(db, ids);
  const fired = sends.filter((s) => s?.status === 'processing').map((s) => s!.email_id);
  const activities = new Map<string, Activity>();
  if (fired.length > 0) {
    for (const item of await batchGetAll(db, fired.map((id) => ({ ...activityKey(id) })))) {
      const activity = activityOfItem(item);
      activities.set(activity.id, activity);
    }
  }
  return sends.map((send) => (send ? presentScheduledSend(send, deriveScheduledStatus(send.status, activities.get(send.email_id))) : undefined));
}
