import { GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import { stripKeys, type Db } from '../store/client';
import { domainKey } from '../store/keys';

/** Verification state of a sending domain (part 3). */
export type VerificationStatus = 'pending' | 'verified' | 'failed';

/** A sending domain of a project; the domain capability adds its DNS records and sub-states. */
export interface SendingDomain {
  project_id: string;
  domain: string;
  identity_id: string;
  verification_status: VerificationStatus;
  /** True once the provider can send for the domain (may precede full DKIM verification). */
  can_send: boolean;
  created_at: string;
  updated_at: string;
}

/** The domain record of a project, or undefined. */
export async function getDomain(db: Db, projectId: string, domain: string): Promise<SendingDomain | undefined> {
  const out = await db.doc.send(new GetCommand({ TableName: db.tableName, Key: domainKey(projectId, domain) }));
  return out.Item ? stripKeys<SendingDomain>(out.Item) : undefined;
}

/** Writes a domain record whole. */
export async function putDomain(db: Db, record: SendingDomain): Promise<void> {
  await db.doc.send(
    new PutCommand({ TableName: db.tableName, Item: { ...domainKey(record.project_id, record.domain), ...record, domain: record.domain.toLowerCase() } }),
  );
}
