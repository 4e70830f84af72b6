import { GetCommand, TransactWriteCommand, UpdateCommand, type UpdateCommandInput } from '@aws-sdk/lib-dynamodb';
import { stripKeys, type Db } from '../store/client';
import { transactWrite, type TransactItem } from '../store/transact';
import { batchGetAll } from '../store/batch-get';
import { queryAllByPrefix } from '../store/query';
import { setFields } from '../store/set-fields';
import { conditionalWrite, writtenUnlessConditionFails } from '../store/conditional-write';
import { ORGANIZATION_PROJECT_PREFIX, apiKeyKey, externalKeyKey, organizationKey, organizationProjectKey, projectKey } from '../store/keys';
import type { KeyMode } from '../security/api-keys';
import type { MarketingPause, Project } from './project';
import type { Clock } from '../core/ports';
import { cachedApiKey, cachedProject, forgetProject } from './project-cache';

const HASH_FIELD: Record<KeyMode, 'live_key_hash' | 'test_key_hash'> = { live: 'live_key_hash', test: 'test_key_hash' };

/**
 * Runs a write that changes a project or its keys, forgetting this instance's cached copy before
 * and after it: before, so this instance sees the change at once; after, so that a read that ran
 * while the write was in flight (another request of this instance) does not keep the old project
 * for PROJECT_CACHE_SECONDS. Other instances see the change within that bound.
 */
async function changingProject<T>(projectId: string, write: () => Promise<T>): Promise<T> {
  forgetProject(projectId);
  try {
    return await write();
  } finally {
    forgetProject(projectId);
  }
}

/** The stored project, or undefined; `consistent` to read a change that has just been answered. */
export async function getProject(db: Db, projectId: string, consistent = false): Promise<Project | undefined> {
  const out = await db.doc.send(new GetCommand({ TableName: db.tableName, Key: projectKey(projectId), ...(consistent ? { ConsistentRead: true } : {}) }));
  return out.Item ? stripKeys<Project>(out.Item) : undefined;
}

/** getProject, trusted for PROJECT_CACHE_SECONDS on a warm instance (auth and the send worker). */
export function getProjectCached(db: Db, clock: Clock, projectId: string): Promise<Project | undefined> {
  return cachedProject(db, clock, projectId, () => getProject(db, projectId));
}

/** findApiKey, trusted for PROJECT_CACHE_SECONDS on a warm instance. */
export function findApiKeyCached(db: Db, clock: Clock, hash: string): Promise<{ project_id: string; mode: KeyMode } | undefined> {
  return cachedApiKey(db, clock, hash, () => findApiKey(db, hash));
}

/** Creates a project and its two key lookups in one transaction (all or nothing). */
export async function createProjectWithKeys(db: Db, project: Project): Promise<void> {
  const lookup = (hash: string, mode: KeyMode) => ({
    Put: {
      TableName: db.tableName,
      Item: { ...apiKeyKey(hash), project_id: project.id, mode },
      ConditionExpression: 'attribute_not_exists(pk)',
    },
  });
  await db.doc.send(
    new TransactWriteCommand({
      TransactItems: [
        {
          Put: {
            TableName: db.tableName,
            Item: { ...projectKey(project.id), ...project },
            ConditionExpression: 'attribute_not_exists(pk)',
          },
        },
        lookup(project.live_key_hash, 'live'),
        lookup(project.test_key_hash, 'test'),
      ],
    }),
  );
}

/**
 * Replaces a project's live or test key: the old lookup is deleted in the same transaction, so the
 * old key stops working at once. False when another rotation won the race.
 */
export async function replaceProjectKey(db: Db, projectId: string, mode: KeyMode, oldHash: string, newHash: string): Promise<boolean> {
  return changingProject(projectId, () => replaceProjectKeyNow(db, projectId, mode, oldHash, newHash));
}

async function replaceProjectKeyNow(db: Db, projectId: string, mode: KeyMode, oldHash: string, newHash: string): Promise<boolean> {
  const field = HASH_FIELD[mode];
  const outcome = await transactWrite(db, [
    {
      Update: {
        TableName: db.tableName,
        Key: projectKey(projectId),
        UpdateExpression: 'SET #f = :new',
        ConditionExpression: '#f = :old',
        ExpressionAttributeNames: { '#f': field },
        ExpressionAttributeValues: { ':new': newHash, ':old': oldHash },
      },
    },
    { Delete: { TableName: db.tableName, Key: apiKeyKey(oldHash) } },
    {
      Put: {
        TableName: db.tableName,
        Item: { ...apiKeyKey(newHash), project_id: projectId, mode },
        ConditionExpression: 'attribute_not_exists(pk)',
      },
    },
  ]);
  return outcome.written;
}

/** Which project and mode a key hash belongs to; strongly consistent so a rotated key fails at once. */
export async function findApiKey(db: Db, hash: string): Promise<{ project_id: string; mode: KeyMode } | undefined> {
  const out = await db.doc.send(new GetCommand({ TableName: db.tableName, Key: apiKeyKey(hash), ConsistentRead: true }));
  return out.Item ? { project_id: out.Item.project_id as string, mode: out.Item.mode as KeyMode } : undefined;
}

/** Why creating a client project was refused. */
export type ClientProjectConflict = 'external_key_taken' | 'quota_reached';

/**
 * Creates a client project of an organization in one transaction: the project, its two key
 * lookups, the organization's link to it, the `external_key` marker, and the organization's
 * active-project count, incremented only while under `max_projects`. Two concurrent calls with one
 * external key therefore make one project, and the quota cannot be overshot.
 */
export async function createClientProject(db: Db, project: Project, externalKey?: string): Promise<ClientProjectConflict | undefined> {
  const organizationId = project.organization_id;
  const items: TransactItem[] = [
    {
      Update: {
        TableName: db.tableName,
        Key: organizationKey(organizationId),
        UpdateExpression: 'ADD active_projects :one',
        ConditionExpression: 'attribute_exists(pk) AND (max_projects = :null OR active_projects < max_projects)',
        ExpressionAttributeValues: { ':one': 1, ':null': null },
      },
    },
    { Put: { TableName: db.tableName, Item: { ...projectKey(project.id), ...project }, ConditionExpression: 'attribute_not_exists(pk)' } },
    { Put: { TableName: db.tableName, Item: { ...apiKeyKey(project.live_key_hash), project_id: project.id, mode: 'live' }, ConditionExpression: 'attribute_not_exists(pk)' } },
    { Put: { TableName: db.tableName, Item: { ...apiKeyKey(project.test_key_hash), project_id: project.id, mode: 'test' }, ConditionExpression: 'attribute_not_exists(pk)' } },
    { Put: { TableName: db.tableName, Item: { ...organizationProjectKey(organizationId, project.id), project_id: project.id, created_at: project.created_at } } },
  ];
  if (externalKey) {
    items.push({
      Put: {
        TableName: db.tableName,
        Item: { ...externalKeyKey(organizationId, externalKey), project_id: project.id },
        ConditionExpression: 'attribute_not_exists(pk)',
      },
    });
  }
  const outcome = await transactWrite(db, items);
  if (outcome.written) return undefined;
  if (externalKey && outcome.failedConditions.includes(5)) return 'external_key_taken';
  if (outcome.failedConditions.includes(0)) return 'quota_reached';
  throw new Error(`Client project ${project.id} was not created: a condition of its transaction failed or another transaction held an item`);
}

/** The project an organization created with this external key, if any. */
export async function findExternalKey(db: Db, organizationId: string, externalKey: string): Promise<string | undefined> {
  const out = await db.doc.send(new GetCommand({ TableName: db.tableName, Key: externalKeyKey(organizationId, externalKey), ConsistentRead: true }));
  return out.Item?.project_id as string | undefined;
}

/** Ids of an organization's client projects, oldest first. */
export async function listOrganizationProjectIds(db: Db, organizationId: string): Promise<string[]> {
  return (await queryAllByPrefix(db, organizationKey(organizationId).pk, ORGANIZATION_PROJECT_PREFIX)).map((i) => i.project_id as string);
}

/** Several projects by id, in no particular order. */
export async function getProjects(db: Db, ids: string[]): Promise<Project[]> {
  return (await batchGetAll(db, ids.map((id) => ({ ...projectKey(id) })))).map((item) => stripKeys<Project>(item));
}

/** Sets only the given project fields. */
export async function updateProjectFields(db: Db, projectId: string, fields: Record<string, unknown>): Promise<void> {
  return changingProject(projectId, () => updateProjectFieldsNow(db, projectId, fields));
}

async function updateProjectFieldsNow(db: Db, projectId: string, fields: Record<string, unknown>): Promise<void> {
  const entries = Object.entries(fields);
  if (entries.length === 0) return;
  await db.doc.send(
    new UpdateCommand({
      TableName: db.tableName,
      Key: projectKey(projectId),
      ...setFields(fields),
      ConditionExpression: 'attribute_exists(pk)',
    }),
  );
}

/**
 * Sets the given fields of a project and returns it as it now is (ReturnValues ALL_NEW: no read
 * after the write). Undefined when the project does not exist.
 */
export async function updateProjectFieldsReturning(db: Db, projectId: string, fields: Record<string, unknown>): Promise<Project | undefined> {
  return changingProject(projectId, async () => {
    const outcome = await conditionalWrite(
      db.doc.send(new UpdateCommand({ TableName: db.tableName, Key: projectKey(projectId), ...setFields(fields), ConditionExpression: 'attribute_exists(pk)', ReturnValues: 'ALL_NEW' })),
    );
    return outcome.written && outcome.output.Attributes ? stripKeys<Project>(outcome.output.Attributes) : undefined;
  });
}

/** One conditional update of the project item: true when it was written, false when its condition failed. */
function updateProjectIf(db: Db, projectId: string, update: Omit<UpdateCommandInput, 'TableName' | 'Key'>): Promise<boolean> {
  return changingProject(projectId, () => writtenUnlessConditionFails(db.doc.send(new UpdateCommand({ TableName: db.tableName, Key: projectKey(projectId), ...update }))));
}

/**
 * Pauses the project's marketing mail (the reputation watch): true when this call set the pause,
 * false when the project was paused already or does not exist, so the webhook goes out once.
 */
export function pauseProjectMarketing(db: Db, projectId: string, pause: MarketingPause): Promise<boolean> {
  return updateProjectIf(db, projectId, {
    UpdateExpression: 'SET marketing_pause = :p',
    ConditionExpression: 'attribute_exists(pk) AND attribute_not_exists(marketing_pause)',
    ExpressionAttributeValues: { ':p': pause },
  });
}

/** Notes that the `project.marketing_paused` event of the pause made at `at` went out; false when that pause no longer stands. */
export function markMarketingPauseAnnounced(db: Db, projectId: string, at: string): Promise<boolean> {
  return updateProjectIf(db, projectId, {
    UpdateExpression: 'SET marketing_pause_announced = :at',
    ConditionExpression: 'marketing_pause.#at = :at',
    ExpressionAttributeNames: { '#at': 'at' },
    ExpressionAttributeValues: { ':at': at },
  });
}

/**
 * Resumes the project's marketing mail (an operator): removes the pause and notes when and what the
 * hour's counters held then, so the watch measures from then on. Answers the project as it was before, or undefined when there is none.
 */
export function resumeProjectMarketing(db: Db, projectId: string, at: string, baseline: NonNullable<Project['marketing_resume_baseline']>): Promise<Project | undefined> {
  return changingProject(projectId, async () => {
    const outcome = await conditionalWrite(
      db.doc.send(
        new UpdateCommand({
          TableName: db.tableName,
          Key: projectKey(projectId),
          UpdateExpression: 'SET marketing_resumed_at = :at, marketing_resume_baseline = :b REMOVE marketing_pause, marketing_pause_announced',
          ConditionExpression: 'attribute_exists(pk)',
          ExpressionAttributeValues: { ':at': at, ':b': baseline },
          ReturnValues: 'ALL_OLD',
        }),
      ),
    );
    return outcome.written && outcome.output.Attributes ? stripKeys<Project>(outcome.output.Attributes) : undefined;
  });
}

/**
 * Records the project's SES tenant, once it exists with the identities and the configuration set
 * associated; a tenant already recorded stays (a repeated provisioning changes nothing).
 */
export function setProjectSesTenant(db: Db, projectId: string, tenant: NonNullable<Project['ses_tenant']>): Promise<boolean> {
  return changingProject(projectId, () =>
    writtenUnlessConditionFails(
      db.doc.send(
        new UpdateCommand({
          TableName: db.tableName,
          Key: projectKey(projectId),
          UpdateExpression: 'SET ses_tenant = :t',
          ConditionExpression: 'attribute_exists(pk) AND attribute_not_exists(ses_tenant)',
          ExpressionAttributeValues: { ':t': tenant },
        }),
      ),
    ),
  );
}

/**
 * Disables or reactivates a client project and moves the organization's active count with it, in
 * one transaction. Reactivation is refused (false) when it would exceed the quota; a project already
 * in the wanted state changes nothing (true).
 */
export async function setClientProjectDisabled(db: Db, project: Project, disabledAt: string | null): Promise<boolean> {
  return changingProject(project.id, () => setClientProjectDisabledNow(db, project, disabledAt));
}

async function setClientProjectDisabledNow(db: Db, project: Project, disabledAt: string | null): Promise<boolean> {
  const disabling = disabledAt !== null;
  const outcome = await transactWrite(db, [
    {
      Update: {
        TableName: db.tableName,
        Key: projectKey(project.id),
        UpdateExpression: 'SET disabled_at = :d',
        ConditionExpression: disabling ? 'attribute_not_exists(disabled_at) OR disabled_at = :null' : 'disabled_at <> :null',
        ExpressionAttributeValues: { ':d': disabledAt, ':null': null },
      },
    },
    {
      Update: {
        TableName: db.tableName,
        Key: organizationKey(project.organization_id),
        UpdateExpression: 'ADD active_projects :n',
        ConditionExpression: disabling ? 'attribute_exists(pk)' : 'max_projects = :null OR active_projects < max_projects',
        ExpressionAttributeValues: disabling ? { ':n': -1 } : { ':n': 1, ':null': null },
      },
    },
  ]);
  if (outcome.written || outcome.failedConditions.includes(0)) return true;
  if (outcome.failedConditions.includes(1)) return false;
  throw new Error(`Project ${project.id} was changed by a concurrent transaction`);
}

/**
 * Sets a project's monthly send quota (a number, `'unlimited'`), or removes it (null) so that the
 * deployment default applies. The updated project, or undefined when there is no such project.
 */
export async function setProjectMonthlyQuota(db: Db, projectId: string, quota: number | 'unlimited' | null): Promise<Project | undefined> {
  return changingProject(projectId, () => setProjectMonthlyQuotaNow(db, projectId, quota));
}

async function setProjectMonthlyQuotaNow(db: Db, projectId: string, quota: number | 'unlimited' | null): Promise<Project | undefined> {
  const outcome = await conditionalWrite(
    db.doc.send(
      new UpdateCommand({
        TableName: db.tableName,
        Key: projectKey(projectId),
        UpdateExpression: quota === null ? 'REMOVE monthly_quota' : 'SET monthly_quota = :q',
        ConditionExpression: 'attribute_exists(pk)',
        ...(quota === null ? {} : { ExpressionAttributeValues: { ':q': quota } }),
        ReturnValues: 'ALL_NEW',
      }),
    ),
  );
  return outcome.written && outcome.output.Attributes ? stripKeys<Project>(outcome.output.Attributes) : undefined;
}

/** Attribute of the project item holding each webhook slot's signing secret (the dev slot has its own: docs/webhooks.md). */
const WEBHOOK_SECRET_FIELD: Readonly<Record<'live' | 'dev', string>> = { live: 'webhook_secret', dev: 'webhook_secret_dev' };

/**
 * The project's webhook signing secret of `slot`, read strongly consistent (a rotated secret is
 * never used again once the rotation answered): `{ exists: false }` when the project does not
 * exist, no `secret` when none is stored yet.
 */
export async function storedWebhookSecret(db: Db, projectId: string, slot: 'live' | 'dev'): Promise<{ exists: boolean; secret?: string }> {
  const field = WEBHOOK_SECRET_FIELD[slot];
  const out = await db.doc.send(
    new GetCommand({
      TableName: db.tableName,
      Key: projectKey(projectId),
      ProjectionExpression: 'pk, #s',
      ExpressionAttributeNames: { '#s': field },
      ConsistentRead: true,
    }),
  );
  if (!out.Item) return { exists: false };
  const stored = out.Item[field];
  return typeof stored === 'string' && stored ? { exists: true, secret: stored } : { exists: true };
}

/**
 * Stores `secret` as the project's webhook secret of `slot` unless one is stored already
 * (`if_not_exists`: two concurrent creators both end with the one stored first). The secret stored
 * afterwards, or undefined when the project does not exist.
 */
export async function keepFirstWebhookSecret(db: Db, projectId: string, slot: 'live' | 'dev', secret: string): Promise<string | undefined> {
  const field = WEBHOOK_SECRET_FIELD[slot];
  const update = db.doc.send(
    new UpdateCommand({
      TableName: db.tableName,
      Key: projectKey(projectId),
      UpdateExpression: 'SET #s = if_not_exists(#s, :s)',
      ConditionExpression: 'attribute_exists(pk)',
      ExpressionAttributeNames: { '#s': field },
      ExpressionAttributeValues: { ':s': secret },
      ReturnValues: 'UPDATED_NEW',
    }),
  );
  const outcome = await conditionalWrite(update);
  return outcome.written ? (outcome.output.Attributes?.[field] as string) : undefined;
}

/** Replaces the project's webhook secret of `slot`; false when the project does not exist. */
export function replaceWebhookSecret(db: Db, projectId: string, slot: 'live' | 'dev', secret: string): Promise<boolean> {
  return writtenUnlessConditionFails(
    db.doc.send(
      new UpdateCommand({
        TableName: db.tableName,
        Key: projectKey(projectId),
        UpdateExpression: 'SET #s = :s',
        ConditionExpression: 'attribute_exists(pk)',
        ExpressionAttributeNames: { '#s': WEBHOOK_SECRET_FIELD[slot] },
        ExpressionAttributeValues: { ':s': secret },
      }),
    ),
  );
}
