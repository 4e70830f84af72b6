import { GetCommand, QueryCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { stripKeys, type Db } from '../../../platform/store/client';
import { conditionalWrite, writtenUnlessConditionFails } from '../../../platform/store/conditional-write';
import { campaignKey, campaignListIndex, campaignListPartition } from '../../../platform/store/keys';
import { setFields } from '../../../platform/store/set-fields';
import { applyTransition, transitionUpdate, type Transition } from '../../../platform/store/aggregate';
import { campaignLifecycle } from '../../../platform/store/aggregates/campaign';
import type { BoundedTotal } from '../../../platform/http/pagination';
import { cursorOfStartKey, partitionListQuery, readBoundedPage } from '../../../platform/store/bounded-list';
import { startKeyOfCursor } from '../../../platform/http/cursor';
import { transactWrite, type TransactItem } from '../../../platform/store/transact';
import { recordTemplateUsageActions, releaseTemplateUsage as releaseTemplateUse } from '../../../mail-pipeline/templates/template-repository';
import type { Campaign, CampaignPause, CampaignStatus } from '../campaign';

/**
 * The campaign item (`CAMPAIGN#<id>`, listed in gsi1 by project): its creation, reads and every
 * status move. Each move is one conditional UpdateItem (1 write unit + 1 for its gsi1 entry), so a
 * redelivered or duplicated engine message, or a cancel racing a step, changes nothing twice. The
 * moves are the campaign's declared transitions (shared/platform/store/aggregates/campaign.ts), applied by
 * shared/platform/store/aggregate.ts; only the engine's step (recordStep) writes its own.
 */

const INDEX_ATTRIBUTES = ['gsi1pk', 'gsi1sk'];

/** A campaign item without its key and index attributes. */
function campaignOf(item: Record<string, unknown>): Campaign {
  const campaign = stripKeys<Record<string, unknown>>(item);
  for (const name of INDEX_ATTRIBUTES) delete campaign[name];
  return campaign as unknown as Campaign;
}

/**
 * Writes a new campaign and records its template usage in one transaction: the template must
 * still exist, its use count goes up, the marker is written (docs/decisions.md, "Template in use").
 * `template_missing` when the template was deleted meanwhile; nothing is written then.
 * 2 (campaign) + 1 (gsi1) + 2 (check) + 2 (marker) + 2 (count) = 9 write units, once per campaign.
 */
export async function putNewCampaign(db: Db, campaign: Campaign): Promise<'written' | 'template_missing'> {
  const items: TransactItem[] = [
    {
      Put: {
        TableName: db.tableName,
        Item: { ...campaignKey(campaign.id), ...campaign, ...campaignListIndex(campaign.project_id, campaign.created_at, campaign.id) },
        ConditionExpression: 'attribute_not_exists(pk)',
      },
    },
    ...recordTemplateUsageActions(db, campaign.project_id, campaign.template_id, 'campaign', campaign.id, campaign.created_at),
  ];
  for (let attempt = 1; attempt <= 3; attempt++) {
    const outcome = await transactWrite(db, items);
    if (outcome.written) return 'written';
    if (outcome.failedConditions.includes(1)) return 'template_missing';
    if (outcome.failedConditions.length > 0) throw new Error(`Campaign ${campaign.id} or its usage marker exists already`);
  }
  throw new Error(`Campaign ${campaign.id}: its creation kept conflicting with other transactions`);
}

/**
 * A campaign by id, or undefined; callers check the project (another project's id is a 404).
 * `consistent` for the engine and the send workers, which act on the latest state.
 */
export async function getCampaign(db: Db, campaignId: string, consistent = false): Promise<Campaign | undefined> {
  const out = await db.doc.send(new GetCommand({ TableName: db.tableName, Key: campaignKey(campaignId), ConsistentRead: consistent }));
  return out.Item ? campaignOf(out.Item) : undefined;
}

/**
 * The project's campaigns created at or after `since`, newest first, at most `cap` (the duplicate
 * windows: one gsi1 range Query, bounded).
 */
export async function campaignsCreatedSince(db: Db, projectId: string, since: string, cap: number): Promise<Campaign[]> {
  const part = campaignListPartition(projectId);
  const out = await db.doc.send(
    new QueryCommand({
      TableName: db.tableName,
      IndexName: part.index,
      KeyConditionExpression: '#pk = :pk AND #sk >= :since',
      ExpressionAttributeNames: { '#pk': part.pkName, '#sk': part.skName },
      ExpressionAttributeValues: { ':pk': part.pk, ':since': since },
      ScanIndexForward: false,
      Limit: cap,
    }),
  );
  return (out.Items ?? []).map(campaignOf);
}

/**
 * One page of the project's campaigns, newest first, optionally in one status (filtered in
 * DynamoDB), from the list's start or a cursor's start key, with its bounded total
 * (shared/platform/store/bounded-list.ts).
 */
export async function pageCampaigns(
  db: Db,
  projectId: string,
  page: { page: number; perPage: number },
  status: CampaignStatus | undefined,
  cursor: string | undefined,
): Promise<{ campaigns: Campaign[] } & BoundedTotal> {
  const part = campaignListPartition(projectId);
  const query = partitionListQuery(db, part, status ? { expression: '#status = :status', names: { '#status': 'status' }, values: { ':status': status } } : undefined);
  const from = startKeyOfCursor(cursor, ['pk', 'sk', part.pkName, part.skName], (k) => k[part.pkName] === part.pk);
  const listed = await readBoundedPage(db, query, page, from);
  return { campaigns: listed.items.map(campaignOf), total: listed.total, totalIsEstimate: listed.totalIsEstimate, nextCursor: cursorOfStartKey(listed.next) };
}

/** A conditional update of an existing campaign. */
interface CampaignUpdate {
  set: Record<string, unknown>;
  remove?: readonly string[];
  /** Holds besides the campaign's existence; may name `#status`. */
  condition: string;
  values?: Record<string, unknown>;
  names?: Record<string, string>;
}

/** The UpdateItem of a conditional campaign update, answering the new item when `returnNew`. */
function updateCampaign(db: Db, campaignId: string, input: CampaignUpdate, returnNew = false) {
  const update = setFields(input.set, input.remove);
  const values = { ...input.values, ...update.ExpressionAttributeValues };
  return db.doc.send(
    new UpdateCommand({
      TableName: db.tableName,
      Key: campaignKey(campaignId),
      UpdateExpression: update.UpdateExpression,
      ConditionExpression: `attribute_exists(pk) AND (${input.condition})`,
      ExpressionAttributeNames: { '#status': 'status', ...input.names, ...update.ExpressionAttributeNames },
      ExpressionAttributeValues: Object.keys(values).length ? values : undefined,
      ...(returnNew ? { ReturnValues: 'ALL_NEW' as const } : {}),
    }),
  );
}

/** `#status IN (...)` over `statuses`, their values added to `values`. */
const statusIn = (statuses: readonly CampaignStatus[], values: Record<string, unknown>) =>
  `#status IN (${statuses
    .map((s, i) => {
      values[`:st${i}`] = s;
      return `:st${i}`;
    })
    .join(', ')})`;

/** A declared move of a campaign's status (shared/platform/store/aggregates/campaign.ts). */
type CampaignTransition = keyof typeof campaignLifecycle.transitions & string;

/**
 * The declared transition that moves a campaign from each of `from` to `to` (their `from` lists
 * for one target do not overlap, so there is at most one); a move nobody declared is a bug.
 */
function declaredMove(from: readonly CampaignStatus[], to: CampaignStatus): CampaignTransition {
  const name = (Object.keys(campaignLifecycle.transitions) as CampaignTransition[]).find((n) => {
    const t: Transition = campaignLifecycle.transitions[n];
    return t.to === to && from.every((s) => t.from.includes(s));
  });
  if (!name) throw new Error(`No campaign transition is declared from ${from.join(', ')} to ${to}`);
  return name;
}

/**
 * The UpdateItem of the declared move from `from` to `to`, conditional on the status being one of
 * `from` (the transition's own states, or fewer: the API moves from the state it read).
 */
function campaignMove(db: Db, campaignId: string, from: readonly CampaignStatus[], to: CampaignStatus, fields: Record<string, unknown>, remove?: readonly string[]): UpdateCommand {
  const name = declaredMove(from, to);
  const declared: Transition = campaignLifecycle.transitions[name];
  if (remove && [...remove].sort().join() !== [...(declared.remove ?? [])].sort().join()) throw new Error(`Transition campaign.${name} removes ${(declared.remove ?? []).join(', ') || 'nothing'}`);
  const narrowed = from.length < declared.from.length;
  const observed = Object.fromEntries(from.map((s, i) => [`:observed${i}`, s]));
  // `#state` is the transition's name for the status field.
  const also = narrowed ? { expression: `#state IN (${Object.keys(observed).join(', ')})`, values: observed } : undefined;
  return transitionUpdate(db, campaignLifecycle, name, campaignKey(campaignId), fields, also);
}

/**
 * Moves a campaign to `to` if its status is one of `from`, setting `updated_at` to `move.now`;
 * `set` adds fields, `remove` must be what the move declares. The new campaign, or undefined when
 * the status was not one of `from` (a lost race or a wrong state).
 */
export async function moveCampaignStatus(
  db: Db,
  campaignId: string,
  move: { from: readonly CampaignStatus[]; to: CampaignStatus; now: string; set?: Record<string, unknown>; remove?: readonly string[] },
): Promise<Campaign | undefined> {
  const command = campaignMove(db, campaignId, move.from, move.to, { updated_at: move.now, ...move.set }, move.remove);
  const outcome = await conditionalWrite(db.doc.send(new UpdateCommand({ ...command.input, ReturnValues: 'ALL_NEW' })));
  return outcome.written && outcome.output.Attributes ? campaignOf(outcome.output.Attributes) : undefined;
}

/** Moves the campaign from one of `from` to `to` with the given fields (a declared move); false when it was elsewhere. */
export function moveCampaign(db: Db, campaignId: string, from: readonly CampaignStatus[], to: CampaignStatus, fields: Record<string, unknown>, remove?: string[]): Promise<boolean> {
  return writtenUnlessConditionFails(db.doc.send(campaignMove(db, campaignId, from, to, fields, remove)));
}

/** Init's move: `initializing` to `pending` with the frozen audience's counts. */
export function markPending(db: Db, campaignId: string, counts: { total_recipients: number; total_batches?: number; current_batch?: number }, now: string): Promise<boolean> {
  return applyTransition(db, campaignLifecycle, 'prepare', campaignKey(campaignId), { ...counts, updated_at: now });
}

/**
 * Records step `step` on the campaign (step n to n+1) with what it changed: its status (pending to
 * processing, rate_limited and back), `released`, `exhausted`, the batch fields. Conditional on the
 * step and on a state the engine may act in, so a cancel or pause in between wins.
 */
export function recordStep(db: Db, campaignId: string, step: number, status: CampaignStatus, fields: Record<string, unknown>): Promise<boolean> {
  const values: Record<string, unknown> = { ':step': step };
  return writtenUnlessConditionFails(
    updateCampaign(db, campaignId, {
      set: { status, step: step + 1, ...fields },
      condition: `#step = :step AND ${statusIn(['pending', 'processing', 'rate_limited'], values)}`,
      names: { '#step': 'step' },
      values,
    }),
  );
}

/** The send worker saw SES throttle a mail: `processing` becomes `rate_limited`; a campaign already so notes the time again. */
export function markRateLimited(db: Db, campaignId: string, now: string): Promise<boolean> {
  return applyTransition(db, campaignLifecycle, 'rateLimit', campaignKey(campaignId), { throttled_at: now, updated_at: now });
}

/** The reputation guard's pause, from a running state. */
export function pauseByGuard(db: Db, campaignId: string, pause: CampaignPause): Promise<boolean> {
  return applyTransition(db, campaignLifecycle, 'pause', campaignKey(campaignId), { pause, updated_at: pause.at });
}

/**
 * Ends a campaign's use of its template (cancel, failure, completion): removes the marker and
 * takes one off the template's use count. Idempotent; the engine calls it at completion.
 */
export async function releaseCampaignTemplate(db: Db, campaign: Pick<Campaign, 'id' | 'project_id' | 'template_id'>): Promise<void> {
  await releaseTemplateUse(db, campaign.project_id, campaign.template_id, 'campaign', campaign.id);
}
