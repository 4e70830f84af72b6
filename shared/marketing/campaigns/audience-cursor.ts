import type { Activity } from '../../mail-pipeline/activity/activity';
import { activitiesInOrder } from '../../mail-pipeline/activity/activity-repository';
import { eventConditions, eventSince, matchesFilter, type AudienceFilter, type EventCondition } from '../../audience/leads/audience-filter';
import { emailsWithEvent } from '../../audience/leads/custom-event-repository';
import { dynamicMembersPage } from '../../audience/leads/dynamic-members-repository';
import type { Lead } from '../../audience/leads/lead';
import { getLeadsByEmail, getLeadsByIds, getLeadsByKeys } from '../../audience/leads/lead-repository';
import type { Needs } from '../../platform/core/dependencies';
import type { Db } from '../../platform/store/client';
import { activityListPartition, leadListPartition, leadOfMembershipPartition, leadShard, leadShards, segmentMembersPartition } from '../../platform/store/keys';
import type { Campaign, CampaignAudience } from './campaign';
import { readIndexPage, type IndexPartition } from './campaign-gateway';

/**
 * Where the cursor stands in the frozen audience: per shard of a sharded index, the last key read
 * (`done` once the shard is read whole); for `ids`, an offset into the list.
 */
export interface CursorPosition {
  shards?: Record<string, Record<string, unknown> | 'done'>;
  offset?: number;
}

/** One page of the audience: the leads to send to, where the cursor now stands, and whether the audience is read whole. */
export interface AudiencePage {
  leads: Lead[];
  position: CursorPosition;
  exhausted: boolean;
}

/** Object key of a campaign's `recipientIds` (a JSON array of lead ids), written at creation. */
export const campaignIdsObjectKey = (projectId: string, campaignId: string): string => `campaigns/${projectId}/${campaignId}/ids.json`;

type Deps = Needs<'db' | 'blobs' | 'clock'>;

/** Sort keys are `<created>#<id>`: this bound keeps entries created at or before the frozen instant (ids sort below `~`). */
const frozenBound = (frozenAt: string) => `${frozenAt}#~`;

/**
 * Reads the next page of about `limit` entries of the frozen audience from `position` (lazily: no
 * copy of the audience exists). Leads deleted since creation have no index entry or no item, and
 * are not in the page; leads created after `frozen_at` are not either.
 */
export async function readAudiencePage(deps: Deps, campaign: Campaign, position: CursorPosition, limit: number): Promise<AudiencePage> {
  const { db } = deps;
  const audience = campaign.audience;
  const created = (leads: Lead[]) => leads.filter((l) => l.created_at <= campaign.frozen_at);
  switch (audience.kind) {
    case 'all':
    case 'filter': {
      const parts = leadShards().map((s) => ({ ...leadListPartition.newest(campaign.project_id, s), shard: String(s) }));
      const read = await readShards(db, parts, position, limit, campaign.frozen_at);
      let leads = await getLeadsByKeys(db, read.items.map((i) => ({ pk: String(i.pk), sk: String(i.sk) })));
      if (audience.kind === 'filter') leads = await matching(deps, campaign.project_id, audience.filter, leads);
      return { leads, position: read.position, exhausted: read.exhausted };
    }
    case 'segment': {
      if (audience.dynamic) return dynamicPage(deps, campaign, audience, position, limit);
      const parts = leadShards().map((s) => ({ ...segmentMembersPartition(campaign.project_id, audience.segment_id, s), shard: String(s) }));
      const read = await readShards(db, parts, position, limit, campaign.frozen_at);
      const leads = await getLeadsByIds(db, campaign.project_id, read.items.map((i) => leadOfMembershipPartition(String(i.pk))));
      return { leads: created(leads), position: read.position, exhausted: read.exhausted };
    }
    case 'ids': {
      const ids = JSON.parse((await deps.blobs.get(campaignIdsObjectKey(campaign.project_id, campaign.id))).toString('utf8')) as string[];
      const offset = position.offset ?? 0;
      const slice = ids.slice(offset, offset + limit);
      const leads = await getLeadsByIds(db, campaign.project_id, slice);
      return { leads: created(leads), position: { offset: offset + slice.length }, exhausted: offset + slice.length >= ids.length };
    }
    case 'follow_up':
      return followUpPage(db, campaign, audience, position, limit);
  }
}

/**
 * Reads about `limit` entries from the shards not read whole yet, an even share each in parallel
 * (so every shard advances), in sort-key order up to the frozen bound.
 */
async function readShards(db: Db, parts: (IndexPartition & { shard: string })[], position: CursorPosition, limit: number, frozenAt?: string) {
  const shards = { ...position.shards };
  const open = parts.filter((p) => shards[p.shard] !== 'done');
  const share = Math.max(1, Math.ceil(limit / Math.max(1, open.length)));
  const pages = await Promise.all(
    open.map(async (part) => {
      const start = shards[part.shard];
      const page = await readIndexPage(db, part, { start: start === 'done' ? undefined : start, limit: share, upTo: frozenAt ? frozenBound(frozenAt) : undefined });
      shards[part.shard] = page.next ?? 'done';
      return page.items;
    }),
  );
  return { items: pages.flat(), position: { shards }, exhausted: parts.every((p) => shards[p.shard] === 'done') };
}

/** The leads of a page that match the filter; event conditions are answered per shard of the page's leads. */
async function matching(deps: Deps, projectId: string, filter: AudienceFilter, leads: Lead[]): Promise<Lead[]> {
  const conditions = eventConditions(filter);
  const answers = new Map<EventCondition, Set<string>>();
  if (conditions.length > 0) {
    const shards = [...new Set(leads.map((l) => leadShard(l.email)))];
    const now = deps.clock.now();
    for (const c of conditions) {
      const sets = await Promise.all(shards.map((s) => emailsWithEvent(deps.db, projectId, c.event, s, eventSince(c, now))));
      answers.set(c, new Set(sets.flatMap((set) => [...set])));
    }
  }
  return leads.filter((lead) => matchesFilter(filter, lead, answers));
}

/** A dynamic segment: the members of the evaluation generation current at creation, shard by shard in email order. */
async function dynamicPage(deps: Deps, campaign: Campaign, audience: Extract<CampaignAudience, { kind: 'segment' }>, position: CursorPosition, limit: number): Promise<AudiencePage> {
  const shards = { ...position.shards };
  const open = leadShards().filter((s) => shards[String(s)] !== 'done');
  const share = Math.max(1, Math.ceil(limit / Math.max(1, open.length)));
  const generation = audience.generation ?? 0;
  const emails = (
    await Promise.all(
      open.map(async (s) => {
        const start = shards[String(s)];
        const page = await dynamicMembersPage(deps.db, campaign.project_id, audience.segment_id, generation, s, start === 'done' ? undefined : start, share);
        shards[String(s)] = page.next ?? 'done';
        return page.emails;
      }),
    )
  ).flat();
  const leads = [...(await getLeadsByEmail(deps.db, campaign.project_id, emails)).values()].filter((l) => l.created_at <= campaign.frozen_at);
  return { leads, position: { shards }, exhausted: leadShards().every((s) => shards[String(s)] === 'done') };
}

/**
 * A follow-up: the earlier campaign's activity records (gsi6, keys only, then read whole), kept
 * when not delivered (no delivery, open or click recorded), or not opened by a human (no
 * `human_opened_at`, which the report branch sets at the first human open; machine opens do not
 * count) among the mails that reached the mailbox.
 */
async function followUpPage(db: Db, campaign: Campaign, audience: Extract<CampaignAudience, { kind: 'follow_up' }>, position: CursorPosition, limit: number): Promise<AudiencePage> {
  const list = activityListPartition.campaign(campaign.project_id, audience.campaign_id);
  const parts = list.pks.map((pk, s) => ({ index: list.index, pkName: list.pkName, skName: list.skName, pk, shard: String(s) }));
  const read = await readShards(db, parts, position, limit);
  const records = await activitiesInOrder(db, read.items.map((i) => String(i.pk)));
  const activities = records.filter((a) => (audience.audience === 'not_delivered' ? notDelivered(a) : notOpened(a)));
  const leads = [...(await getLeadsByEmail(db, campaign.project_id, [...new Set(activities.map((a) => a.recipient_primary.toLowerCase()))])).values()];
  return { leads: leads.filter((l) => l.created_at <= campaign.frozen_at), position: read.position, exhausted: read.exhausted };
}

const notDelivered = (a: Activity) => !a.delivered_at && !a.opened_first_at && !a.clicked_first_at && a.current_status !== 'delivered' && a.current_status !== 'complained';

const notOpened = (a: Activity & { human_opened_at?: string }) => !a.human_opened_at && (a.current_status === 'sent' || a.current_status === 'delivered');
