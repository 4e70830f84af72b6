import { GetCommand, TransactWriteCommand } from '@aws-sdk/lib-dynamodb';
import { stripKeys, type Db } from '../store/client';
import { organizationKey, partnerKeyKey } from '../store/keys';

/** An organization: a partner account that owns projects. */
export interface Organization {
  id: string;
  name: string;
  /** Client projects allowed; null means unlimited. The root project does not count. */
  max_projects: number | null;
  /** The organization's own project, excluded from the quota. */
  root_project_id?: string;
  created_at: string;
}

/** Creates an organization and its first partner key lookup together. */
export async function createOrganizationWithKey(db: Db, org: Organization, partnerKeyHash: string): Promise<void> {
  await db.doc.send(
    new TransactWriteCommand({
      TransactItems: [
        { Put: { TableName: db.tableName, Item: { ...organizationKey(org.id), ...org }, ConditionExpression: 'attribute_not_exists(pk)' } },
        {
          Put: {
            TableName: db.tableName,
            Item: { ...partnerKeyKey(partnerKeyHash), organization_id: org.id },
            ConditionExpression: 'attribute_not_exists(pk)',
          },
        },
      ],
    }),
  );
}

/** The organization, or undefined. */
export async function getOrganization(db: Db, organizationId: string): Promise<Organization | undefined> {
  const out = await db.doc.send(new GetCommand({ TableName: db.tableName, Key: organizationKey(organizationId) }));
  return out.Item ? stripKeys<Organization>(out.Item) : undefined;
}

/** Which organization a partner key hash belongs to; strongly consistent so revocation is immediate. */
export async function findPartnerKey(db: Db, hash: string): Promise<{ organization_id: string } | undefined> {
  const out = await db.doc.send(new GetCommand({ TableName: db.tableName, Key: partnerKeyKey(hash), ConsistentRead: true }));
  return out.Item ? { organization_id: out.Item.organization_id as string } : undefined;
}
