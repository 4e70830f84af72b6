import { defineAggregate, hours, type AccessPattern, type ItemKey } from '../aggregate-definition';

/** Hours a console session lives (its item expires with it). */
const CONSOLE_SESSION_HOURS = 8;

/** Key of an organization (a partner account). */
export const organizationKey = (organizationId: string): ItemKey => ({ pk: `ORG#${organizationId}`, sk: 'ORG' });

/** Key of the lookup item that maps a partner key's hash to its organization. */
export const partnerKeyKey = (keyHash: string): ItemKey => ({ pk: `PARTNERKEY#${keyHash}`, sk: 'PARTNERKEY' });

/** Key of a partner key's record inside its organization (id, hash, dates; for listing and revoking). */
export const partnerKeyRecordKey = (organizationId: string, keyId: string): ItemKey => ({ pk: `ORG#${organizationId}`, sk: `PKEY#${keyId}` });

/** Prefix of an organization's partner key records. */
export const PARTNER_KEY_RECORD_PREFIX = 'PKEY#';

/** Key of the link from an organization to one of its client projects. */
export const organizationProjectKey = (organizationId: string, projectId: string): ItemKey => ({ pk: `ORG#${organizationId}`, sk: `PROJECT#${projectId}` });

/** Prefix of an organization's project links. */
export const ORGANIZATION_PROJECT_PREFIX = 'PROJECT#';

/** Key of the item that makes project creation with an `external_key` idempotent. */
export const externalKeyKey = (organizationId: string, externalKey: string): ItemKey => ({ pk: `ORG#${organizationId}`, sk: `EXTKEY#${externalKey}` });

/** An organization (a partner account), its partner keys, its client projects and their external keys. */
export const organization = /* @__PURE__ */ defineAggregate({
  name: 'organization',
  keys: { organizationKey, partnerKeyKey, partnerKeyRecordKey, PARTNER_KEY_RECORD_PREFIX, organizationProjectKey, ORGANIZATION_PROJECT_PREFIX, externalKeyKey },
});

/** Key of a project. */
export const projectKey = (projectId: string): ItemKey => ({ pk: `PROJECT#${projectId}`, sk: 'PROJECT' });

/** Key of the lookup item that maps an API key's hash to its project and mode. */
export const apiKeyKey = (keyHash: string): ItemKey => ({ pk: `APIKEY#${keyHash}`, sk: 'APIKEY' });

/** A project and the lookup from its API keys' hashes. */
export const project = /* @__PURE__ */ defineAggregate({
  name: 'project',
  keys: { projectKey, apiKeyKey },
});

/** Key of a console session, by the hash of its token. */
export const consoleSessionKey = (tokenHash: string): ItemKey => ({ pk: `CONSOLESESSION#${tokenHash}`, sk: 'CONSOLESESSION' });

/** A console session: the hash of its token maps to the hash of the key it signed in with. */
export const consoleSession = /* @__PURE__ */ defineAggregate({
  name: 'console session',
  keys: { consoleSessionKey },
  ttl: [{ attribute: 'ttl', items: 'sessions', seconds: /* @__PURE__ */ hours(CONSOLE_SESSION_HOURS) }],
});

/** The access-pattern rows of this file's aggregates (docs/access-patterns.md): data for the document, kept out of the definitions so function bundles leave them out. */
export const tenancyAccessPatterns: Record<string, readonly AccessPattern[]> = {
  organization: [
    { pattern: 'Organization by id', pk: 'ORG#<orgId>', sk: 'ORG', operation: 'GetItem / PutItem', wcu: '1 (rare)' },
    { pattern: 'Partner key -> organization', pk: 'PARTNERKEY#<sha256>', sk: 'PARTNERKEY', operation: 'GetItem on every call', wcu: '0 (1 to issue)' },
    { pattern: 'Partner key record of an organization', pk: 'ORG#<orgId>', sk: 'PKEY#<keyId>', operation: 'Put / Delete (revoke)', wcu: '1 (rare)' },
    { pattern: 'Client projects of an organization', pk: 'ORG#<orgId>', sk: 'PROJECT#<projectId>', operation: 'Query begins_with', wcu: '1 per project (in the creation transaction)' },
    { pattern: 'External key -> project (idempotency)', pk: 'ORG#<orgId>', sk: 'EXTKEY#<key>', operation: 'conditional Put, Get', wcu: '1 per project with a key' },
  ],
  project: [
    { pattern: 'Project by id', pk: 'PROJECT#<projectId>', sk: 'PROJECT', operation: 'GetItem on every call', wcu: '0 (1 to create/update)' },
    { pattern: 'API key -> project, mode', pk: 'APIKEY#<sha256>', sk: 'APIKEY', operation: 'GetItem on every call', wcu: '0 (rotation: 2 + 1 txn)' },
  ],
  consoleSession: [
    { pattern: 'Console session (token hash -> key hash)', pk: 'CONSOLESESSION#<sha256 token>', sk: 'CONSOLESESSION', operation: 'Put at sign-in, GetItem per console call, Delete at sign-out (TTL 8 h)', wcu: '1 per sign-in' },
  ],
};
