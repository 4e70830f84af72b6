import { randomBytes, randomUUID } from 'node:crypto';
import { generateKey } from '../security/api-keys';
import { notFound } from '../core/errors';
import type { Clock } from '../core/ports';
import type { Db } from '../store/client';
import { addPartnerKey, getOrganization, listPartnerKeys, putNewOrganization, removePartnerKey, updateOrganization, type Organization } from './organization-repository';

/** Creates an organization (a partner account) with a project quota; null means unlimited. */
export async function createOrganization(db: Db, clock: Clock, input: { name: string; maxProjects?: number | null }): Promise<Organization> {
  const org: Organization = {
    id: randomUUID(),
    name: input.name,
    max_projects: input.maxProjects ?? null,
    active_projects: 0,
    created_at: clock.now().toISOString(),
  };
  await putNewOrganization(db, org);
  return org;
}

/** Issues a new partner key for an organization; the plaintext is shown this once. */
export async function issuePartnerKey(db: Db, clock: Clock, organizationId: string): Promise<{ keyId: string; key: string }> {
  if (!(await getOrganization(db, organizationId))) throw notFound(`Organization ${organizationId} not found`);
  const key = generateKey('partner');
  const keyId = `pk_${randomBytes(6).toString('hex')}`;
  await addPartnerKey(db, organizationId, { key_id: keyId, key_hash: key.hash, created_at: clock.now().toISOString() });
  return { keyId, key: key.plaintext };
}

/** Revokes one partner key; it stops working at once. */
export async function revokePartnerKey(db: Db, organizationId: string, keyId: string): Promise<void> {
  const record = (await listPartnerKeys(db, organizationId)).find((k) => k.key_id === keyId);
  if (!record) throw notFound(`Partner key ${keyId} not found in organization ${organizationId}`);
  await removePartnerKey(db, organizationId, record);
}

/** Sets how many active client projects the organization may have (null: unlimited). */
export async function setMaxProjects(db: Db, organizationId: string, maxProjects: number | null): Promise<void> {
  if (!(await getOrganization(db, organizationId))) throw notFound(`Organization ${organizationId} not found`);
  await updateOrganization(db, organizationId, { max_projects: maxProjects });
}
