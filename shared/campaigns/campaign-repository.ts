import { GetCommand, QueryCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { isConditionalCheckFailure } from '../errors';
import { stripKeys, type Db } from '../store/client';
import { campaignKey, campaignListIndex, campaignListPartition } from '../store/keys';
import { setFields } from '../store/set-fields';
import type { BoundedTotal } from '../http/pagination';
import { cursorOfStartKey, partitionListQuery, readBoundedPage, startKeyOfCursor } from '../http/bounded-list';
import { transactWrite, type TransactItem } from '../store/transact';
import { recordTemplateUsageActions, releaseTemplateUsage as releaseTemplateUse } from '../templates/template-repository';
import type { Campaign, CampaignStatus } from './campaign';

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

/** A campaign by id, or undefined; callers check the project (another project's id is a 404). */
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
 * (shared/http/bounded-list.ts).
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

/**
 * Moves a campaign to `to` if its status is one of `from` (one conditional UpdateItem: 1 write unit
 * + 1 for its gsi1 entry). `set` adds fields, `remove` drops them. The new campaign, or undefined
 * when the status was not one of `from` (a lost race or a wrong state).
 */
export async function moveCampaignStatus(
  db: Db,
  campaignId: string,
  move: { from: readonly CampaignStatus[]; to: CampaignStatus; now: string; set?: Record<string, unknown>; remove?: readonly string[] },
): Promise<Campaign | undefined> {
  const update = setFields({ status: move.to, updated_at: move.now, ...move.set }, move.remove);
  const from = Object.fromEntries(move.from.map((s, i) => [`:from${i}`, s]));
  try {
    const out = await db.doc.send(
      new UpdateCommand({
        TableName: db.tableName,
        Key: campaignKey(campaignId),
        UpdateExpression: update.UpdateExpression,
        ConditionExpression: `attribute_exists(pk) AND #status IN (${Object.keys(from).join(', ')})`,
        ExpressionAttributeNames: { '#status': 'status', ...update.ExpressionAttributeNames },
        ExpressionAttributeValues: { ...from, ...update.ExpressionAttributeValues },
        ReturnValues: 'ALL_NEW',
      }),
    );
    return out.Attributes ? campaignOf(out.Attributes) : undefined;
  } catch (error) {
    if (isConditionalCheckFailure(error)) return undefined;
    throw error;
  }
}

/**
 * Ends a campaign's use of its template (cancel, failure, completion): removes the marker and
 * takes one off the template's use count. Idempotent; the engine calls it at completion.
 */
export async function releaseCampaignTemplate(db: Db, campaign: Pick<Campaign, 'id' | 'project_id' | 'template_id'>): Promise<void> {
  await releaseTemplateUse(db, campaign.project_id, campaign.template_id, 'campaign', campaign.id);
}
