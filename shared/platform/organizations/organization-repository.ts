import { GetCommand, QueryCommand, TransactWriteCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { stripKeys, type Db } from '../store/client';
import { setFields } from '../store/set-fields';
import { PARTNER_KEY_RECORD_PREFIX, organizationKey, partnerKeyKey, partnerKeyRecordKey } from '../store/keys';

/** An organization: a partner account that owns projects. */
export interface Organization {
  id: string;
  name: string;
  /** Client projects allowed; null means unlimited. The root project does not count. */
  max_projects: number | null;
  /** Active (not disabled) client projects, kept in step by the transactions that create, disable and reactivate them. */
  active_projects: number;
  /** The organization's own project, excluded from the quota. */
  root_project_id?: string;
  created_at: string;
}

/** A partner key as the organization keeps it: never the key itself, only its hash. */
export interface PartnerKeyRecord {
  key_id: string;
  key_hash: string;
  created_at: string;
}

/** Creates an organization (with no key yet). */
export async function putNewOrganization(db: Db, org: Organization): Promise<void> {
  await db.doc.send(
    new TransactWriteCommand({
      TransactItems: [{ Put: { TableName: db.tableName, Item: { ...organizationKey(org.id), ...org }, ConditionExpression: 'attribute_not_exists(pk)' } }],
    }),
  );
}

/** Adds a partner key: its record in the organization and the lookup used on every call, together. */
export async function addPartnerKey(db: Db, organizationId: string, record: PartnerKeyRecord): Promise<void> {
  await db.doc.send(
    new TransactWriteCommand({
      TransactItems: [
        { ConditionCheck: { TableName: db.tableName, Key: organizationKey(organizationId), ConditionExpression: 'attribute_exists(pk)' } },
        { Put: { TableName: db.tableName, Item: { ...partnerKeyRecordKey(organizationId, record.key_id), ...record }, ConditionExpression: 'attribute_not_exists(pk)' } },
        {
          Put: {
            TableName: db.tableName,
            Item: { ...partnerKeyKey(record.key_hash), organization_id: organizationId, key_id: record.key_id },
            ConditionExpression: 'attribute_not_exists(pk)',
          },
        },
      ],
    }),
  );
}

/** Revokes a partner key: both items go in one transaction, so the key stops working at once. */
export async function removePartnerKey(db: Db, organizationId: string, record: PartnerKeyRecord): Promise<void> {
  await db.doc.send(
    new TransactWriteCommand({
      TransactItems: [
        { Delete: { TableName: db.tableName, Key: partnerKeyRecordKey(organizationId, record.key_id) } },
        { Delete: { TableName: db.tableName, Key: partnerKeyKey(record.key_hash) } },
      ],
    }),
  );
}

/** The partner keys of an organization (ids and dates; the keys themselves are never stored). */
export async function listPartnerKeys(db: Db, organizationId: string): Promise<PartnerKeyRecord[]> {
  const out = await db.doc.send(
    new QueryCommand({
      TableName: db.tableName,
      KeyConditionExpression: 'pk = :pk AND begins_with(sk, :prefix)',
      ExpressionAttributeValues: { ':pk': organizationKey(organizationId).pk, ':prefix': PARTNER_KEY_RECORD_PREFIX },
    }),
  );
  return (out.Items ?? []).map((i) => stripKeys<PartnerKeyRecord>(i));
}

/** The organization, or undefined. */
export async function getOrganization(db: Db, organizationId: string): Promise<Organization | undefined> {
  const out = await db.doc.send(new GetCommand({ TableName: db.tableName, Key: organizationKey(organizationId), ConsistentRead: true }));
  return out.Item ? stripKeys<Organization>(out.Item) : undefined;
}

/** Sets the organization's project quota (null: unlimited) and, optionally, its root project. */
export async function updateOrganization(db: Db, organizationId: string, fields: { max_projects?: number | null; root_project_id?: string; name?: string }): Promise<void> {
  const entries = Object.entries(fields).filter(([, v]) => v !== undefined);
  if (entries.length === 0) return;
  await db.doc.send(
    new UpdateCommand({
      TableName: db.tableName,
      Key: organizationKey(organizationId),
      ...setFields(fields),
      ConditionExpression: 'attribute_exists(pk)',
    }),
  );
}

/** Which organization a partner key hash belongs to; strongly consistent so revocation is immediate. */
export async function findPartnerKey(db: Db, hash: string): Promise<{ organization_id: string; key_id?: string } | undefined> {
  const out = await db.doc.send(new GetCommand({ TableName: db.tableName, Key: partnerKeyKey(hash), ConsistentRead: true }));
  return out.Item ? { organization_id: out.Item.organization_id as string, key_id: out.Item.key_id as string | undefined } : undefined;
}
