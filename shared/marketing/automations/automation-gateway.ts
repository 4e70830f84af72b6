/**
 * The automation gateway: the one module that reads and writes an automation, its versions and its
 * project's trigger table (shared/platform/store/aggregates/automation.ts declares them).
 */
import { DeleteCommand, GetCommand, PutCommand, QueryCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { writtenUnlessConditionFails } from '../../platform/store/conditional-write';
import { ShortLivedCache } from '../../platform/cache/short-lived-cache';
import type { Clock } from '../../platform/core/ports';
import { stripKeys, type Db } from '../../platform/store/client';
import { applyTransition, putIfAbsent, type TransitionValues } from '../../platform/store/aggregate';
import { automationLifecycle } from '../../platform/store/aggregates/automation';
import { automationDateTriggerIndex, automationDateTriggerPartition, automationKey, automationListIndex, automationListPartition, automationTriggerKey, automationTriggerPartition, automationVersionKey } from '../../platform/store/keys';
import { cursorOfStartKey, partitionListQuery, readBoundedPage } from '../../platform/store/bounded-list';
import { startKeyOfCursor } from '../../platform/http/cursor';
import type { BoundedTotal, PageRequest } from '../../platform/store/paging';
import type { SetCondition } from '../../platform/store/set-fields';
import { transactWrite, type TransactItem } from '../../platform/store/transact';
import type { Automation, AutomationVersion, TriggerEntry } from './automation';
import type { AutomationStatus } from './definition';

const INDEX_ATTRIBUTES = ['gsi1pk', 'gsi1sk'];

/** An automation item without its key and index attributes. */
function automationOf(item: Record<string, unknown>): Automation {
  const automation = stripKeys<Record<string, unknown>>(item);
  for (const name of INDEX_ATTRIBUTES) delete automation[name];
  return automation as unknown as Automation;
}

/** Writes a new automation item (listed in its project's gsi1 partition); false when the id exists. */
export function putNewAutomation(db: Db, automation: Automation): Promise<boolean> {
  return putIfAbsent(db, { ...automationKey(automation.id), ...automation, ...automationListIndex(automation.project_id, automation.created_at, automation.id) });
}

/** An automation by id, or undefined; callers check its project (another project's id is a 404). */
export async function getAutomation(db: Db, automationId: string, consistent = false): Promise<Automation | undefined> {
  const out = await db.doc.send(new GetCommand({ TableName: db.tableName, Key: automationKey(automationId), ConsistentRead: consistent }));
  return out.Item ? automationOf(out.Item) : undefined;
}

/** Writes a version of an automation's definition (a new one, or a never-used draft's replacement). */
export async function putAutomationVersion(db: Db, version: AutomationVersion): Promise<void> {
  await db.doc.send(new PutCommand({ TableName: db.tableName, Item: { ...automationVersionKey(version.automation_id, version.version), ...version } }));
}

// A version a run started on never changes again, so each process keeps what it read. Bounded: the
// oldest entry goes first beyond the limit.
const versions = new Map<string, AutomationVersion>();
const MAX_CACHED_VERSIONS = 500;

/**
 * One version of an automation, or undefined. `cached`: read once per process (the engine; a version
 * in use is immutable). The API reads it fresh (a draft's version is replaced in place).
 */
export async function getAutomationVersion(db: Db, automationId: string, version: number, cached = false): Promise<AutomationVersion | undefined> {
  const id = `${automationId}#${version}`;
  if (cached) {
    const hit = versions.get(id);
    if (hit) return hit;
  }
  const out = await db.doc.send(new GetCommand({ TableName: db.tableName, Key: automationVersionKey(automationId, version) }));
  if (!out.Item) return undefined;
  const read = stripKeys<AutomationVersion>(out.Item);
  if (cached) {
    if (versions.size >= MAX_CACHED_VERSIONS) versions.delete(versions.keys().next().value as string);
    versions.set(id, read);
  }
  return read;
}

/**
 * Applies one of the automation's declared moves (activate, pause, archive); false when its status
 * did not allow it, or when `revision` is given and the automation changed since it was read.
 */
export function moveAutomation<N extends keyof typeof automationLifecycle.transitions & string>(
  db: Db,
  automationId: string,
  name: N,
  values: TransitionValues<(typeof automationLifecycle.transitions)[N]>,
  revision?: number,
): Promise<boolean> {
  const also: SetCondition | undefined = revision === undefined ? undefined : { expression: '#revision = :revision', names: { '#revision': 'revision' }, values: { ':revision': revision } };
  return applyTransition(db, automationLifecycle, name, automationKey(automationId), values, also);
}

/**
 * One page of a project's automations, newest first, optionally in one status (filtered in
 * DynamoDB), from the list's start or a cursor's start key, with its bounded total.
 */
export async function pageAutomations(
  db: Db,
  projectId: string,
  page: PageRequest,
  status: AutomationStatus | undefined,
  cursor: string | undefined,
): Promise<{ automations: Automation[] } & BoundedTotal> {
  const part = automationListPartition(projectId);
  const query = partitionListQuery(db, part, status ? { expression: '#status = :status', names: { '#status': 'status' }, values: { ':status': status } } : undefined);
  const from = startKeyOfCursor(cursor, ['pk', 'sk', part.pkName, part.skName], (k) => k[part.pkName] === part.pk);
  const listed = await readBoundedPage(db, query, page, from);
  return { automations: listed.items.map(automationOf), total: listed.total, totalIsEstimate: listed.totalIsEstimate, nextCursor: cursorOfStartKey(listed.next) };
}

/** What an edit writes on the automation item besides its version pointer. */
export interface AutomationEdit {
  name: string;
  trigger_type: Automation['trigger_type'];
  updated_at: string;
  /** The template uses recorded for it (set when the edit records the new version's). */
  template_uses?: string[];
}

/**
 * Writes an edit in one transaction, conditional on the automation's `revision` (bumped): either
 * `version` replaces the current version in place (a draft no run used), or it is a new version
 * (`version.version` = current + 1, which must not exist) and the automation points at it, no run
 * having used it yet. False when the automation changed since it was read (nothing written).
 */
export async function saveAutomationEdit(db: Db, automation: Automation, version: AutomationVersion, edit: AutomationEdit): Promise<boolean> {
  const replace = version.version === automation.version;
  const set: Record<string, unknown> = { ...edit, version: version.version };
  const names: Record<string, string> = { '#revision': 'revision' };
  const values: Record<string, unknown> = { ':revision': automation.revision, ':one': 1 };
  const clauses = Object.entries(set)
    .filter(([, v]) => v !== undefined)
    .map(([field, v], i) => ((names[`#f${i}`] = field), (values[`:v${i}`] = v), `#f${i} = :v${i}`));
  const items: TransactItem[] = [
    {
      Put: {
        TableName: db.tableName,
        Item: { ...automationVersionKey(version.automation_id, version.version), ...version },
        ...(replace ? {} : { ConditionExpression: 'attribute_not_exists(pk)' }),
      },
    },
    {
      Update: {
        TableName: db.tableName,
        Key: automationKey(automation.id),
        UpdateExpression: `SET ${clauses.join(', ')} ADD #revision :one${replace ? '' : ' REMOVE #used'}`,
        ConditionExpression: '#revision = :revision',
        ExpressionAttributeNames: replace ? names : { ...names, '#used': 'version_used' },
        ExpressionAttributeValues: values,
      },
    },
  ];
  const outcome = await transactWrite(db, items);
  if (outcome.written) return true;
  if (outcome.failedConditions.length > 0) return false;
  throw new Error(`Automation ${automation.id}: its edit conflicted with another transaction`);
}

/**
 * Deletes a draft and its versions in one transaction, conditional on its status still being
 * `draft` at `revision`; false when it moved or changed since it was read.
 */
export async function deleteDraftAutomation(db: Db, automation: Automation): Promise<boolean> {
  const out = await db.doc.send(
    new QueryCommand({
      TableName: db.tableName,
      KeyConditionExpression: 'pk = :pk AND begins_with(sk, :ver)',
      ExpressionAttributeValues: { ':pk': automationKey(automation.id).pk, ':ver': 'VER#' },
      ProjectionExpression: 'pk, sk',
    }),
  );
  const items: TransactItem[] = [
    {
      Delete: {
        TableName: db.tableName,
        Key: automationKey(automation.id),
        ConditionExpression: '#status = :draft AND #revision = :revision',
        ExpressionAttributeNames: { '#status': 'status', '#revision': 'revision' },
        ExpressionAttributeValues: { ':draft': 'draft', ':revision': automation.revision },
      },
    },
    ...(out.Items ?? []).map((item): TransactItem => ({ Delete: { TableName: db.tableName, Key: { pk: item.pk, sk: item.sk } } })),
  ];
  const outcome = await transactWrite(db, items);
  if (outcome.written) return true;
  if (outcome.failedConditions.length > 0) return false;
  throw new Error(`Automation ${automation.id}: its delete conflicted with another transaction`);
}

/**
 * How long a warm instance trusts what it read of a project's trigger table: an activation, a pause
 * or an edit reaches the dispatchers of other instances within this bound (at once on the instance
 * that made it). Signals of that window are routed by the table as it was.
 */
export const TRIGGER_TABLE_CACHE_SECONDS = 15;
const triggerTables = new ShortLivedCache<TriggerEntry[]>(TRIGGER_TABLE_CACHE_SECONDS * 1000);

/** Forgets what this instance read of a project's trigger table: called by every write of it. */
function forgetTriggerTable(projectId: string): void {
  triggerTables.forget((entries) => entries.length === 0 || entries[0].project_id === projectId);
}

/** Writes (or replaces) an active automation's row in its project's trigger table; a date trigger is also listed for the daily walk. */
export async function putTriggerEntry(db: Db, entry: TriggerEntry): Promise<void> {
  forgetTriggerTable(entry.project_id);
  const dateIndex = entry.trigger.type === 'date' ? automationDateTriggerIndex(entry.automation_id) : {};
  await db.doc.send(new PutCommand({ TableName: db.tableName, Item: { ...automationTriggerKey(entry.project_id, entry.automation_id), ...entry, ...dateIndex } }));
}

/** Removes an automation from its project's trigger table (pause, archive). */
export async function deleteTriggerEntry(db: Db, projectId: string, automationId: string): Promise<void> {
  forgetTriggerTable(projectId);
  await db.doc.send(new DeleteCommand({ TableName: db.tableName, Key: automationTriggerKey(projectId, automationId) }));
}

/** Every active automation of a project, as its trigger table has it (a project has a few: one page). */
export async function queryTriggerEntries(db: Db, projectId: string): Promise<TriggerEntry[]> {
  const entries: TriggerEntry[] = [];
  let start: Record<string, unknown> | undefined;
  do {
    const out = await db.doc.send(
      new QueryCommand({ TableName: db.tableName, KeyConditionExpression: 'pk = :pk', ExpressionAttributeValues: { ':pk': automationTriggerPartition(projectId) }, ExclusiveStartKey: start }),
    );
    for (const item of out.Items ?? []) entries.push(triggerEntryOf(item));
    start = out.LastEvaluatedKey;
  } while (start);
  return entries;
}

/** A trigger entry without its keys, its date index and the date walk's mark (`walked_day`). */
export function triggerEntryOf(item: Record<string, unknown>): TriggerEntry {
  const { gsi1pk: _pk, gsi1sk: _sk, walked_day: _day, ...entry } = stripKeys<TriggerEntry & { gsi1pk?: string; gsi1sk?: string; walked_day?: string }>(item);
  return entry;
}

/** A date-triggered automation's trigger entry with the last day the daily walk queued (`YYYY-MM-DD`; absent: none since its activation or edit). */
export type DateTriggerEntry = TriggerEntry & { walked_day?: string };

/** Every active date-triggered automation of the deployment (gsi1 AUTODATES: a few per project), with its walk mark. */
export async function queryDateTriggerEntries(db: Db): Promise<DateTriggerEntry[]> {
  const part = automationDateTriggerPartition();
  const entries: DateTriggerEntry[] = [];
  let start: Record<string, unknown> | undefined;
  do {
    const out = await db.doc.send(
      new QueryCommand({ TableName: db.tableName, IndexName: part.index, KeyConditionExpression: '#pk = :pk', ExpressionAttributeNames: { '#pk': part.pkName }, ExpressionAttributeValues: { ':pk': part.pk }, ExclusiveStartKey: start }),
    );
    for (const item of out.Items ?? []) entries.push({ ...triggerEntryOf(item), ...(typeof item.walked_day === 'string' ? { walked_day: item.walked_day } : {}) });
    start = out.LastEvaluatedKey;
  } while (start);
  return entries;
}

/**
 * Marks `day` walked on a date trigger's entry, unless it is gone (paused, archived) or already
 * marked that day or later; false then. A rewrite of the entry (an edit) clears the mark.
 */
export async function markDateWalked(db: Db, projectId: string, automationId: string, day: string): Promise<boolean> {
  return writtenUnlessConditionFails(
    db.doc.send(
      new UpdateCommand({
        TableName: db.tableName,
        Key: automationTriggerKey(projectId, automationId),
        UpdateExpression: 'SET walked_day = :day',
        ConditionExpression: 'attribute_exists(pk) AND (attribute_not_exists(walked_day) OR walked_day < :day)',
        ExpressionAttributeValues: { ':day': day },
      }),
    ),
  );
}

/** queryTriggerEntries through this instance's cache, trusted for TRIGGER_TABLE_CACHE_SECONDS (the dispatcher, per signal batch). */
export async function queryTriggerEntriesCached(db: Db, clock: Clock, projectId: string): Promise<TriggerEntry[]> {
  return (await triggerTables.get(`${db.tableName}|${projectId}`, clock.now().getTime(), () => queryTriggerEntries(db, projectId))) ?? [];
}
