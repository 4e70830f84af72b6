/**
 * Every key format of the single table, and nothing else writes a key string.
 *
 * Generic attributes: `pk`, `sk` (and `ttl`, epoch seconds, for expiring items). Every key starts
 * with its entity's prefix. Write units (WCU) assume on-demand mode and items under 1 KB unless
 * noted; a conditional write that fails still costs its units.
 *
 * | Entity / access pattern              | pk                     | sk                 | Operation              | WCU per call            |
 * |--------------------------------------|------------------------|--------------------|------------------------|-------------------------|
 * | Organization by id                   | ORG#<orgId>            | ORG                | GetItem / PutItem      | 1 (rare)                |
 * | Partner key -> organization          | PARTNERKEY#<sha256>    | PARTNERKEY         | GetItem on every call  | 0 (1 to issue)          |
 * | Project by id                        | PROJECT#<projectId>    | PROJECT            | GetItem on every call  | 0 (1 to create/update)  |
 * | API key -> project, mode             | APIKEY#<sha256>        | APIKEY             | GetItem on every call  | 0 (rotation: 2 + 1 txn) |
 * | Sending domain of a project          | PROJECT#<projectId>    | DOMAIN#<domain>    | GetItem per send       | 0 (1 to register)       |
 * | Suppression entry of a project       | PROJECT#<projectId>    | SUPP#<email>       | BatchGet per send      | 0 (1 to add)            |
 * | Activity record by id                | ACT#<activityId>       | ACT                | PutItem / UpdateItem   | 1 put + 1 sent update   |
 * | Activity body (html, text, lists)    | ACT#<activityId>       | BODY               | conditional PutItem    | ceil(gzip KB), the claim|
 * | Activity with body (include=html)    | ACT#<activityId>       | (all)              | Query                  | 0                       |
 *
 * Per mail through `sent`: 1 (activity put) + ceil(gzip body / 1 KB) (body put, which doubles as
 * the worker's claim) + 1 (sent) = 3 WCU for a typical mail whose gzipped body is under 1 KB.
 * The API writes no separate claim item and no index entry; see docs/cost.md.
 */

export interface ItemKey {
  pk: string;
  sk: string;
}

/** Key of an organization (a partner account). */
export const organizationKey = (organizationId: string): ItemKey => ({ pk: `ORG#${organizationId}`, sk: 'ORG' });

/** Key of the lookup item that maps a partner key's hash to its organization. */
export const partnerKeyKey = (keyHash: string): ItemKey => ({ pk: `PARTNERKEY#${keyHash}`, sk: 'PARTNERKEY' });

/** Key of a project. */
export const projectKey = (projectId: string): ItemKey => ({ pk: `PROJECT#${projectId}`, sk: 'PROJECT' });

/** Key of the lookup item that maps an API key's hash to its project and mode. */
export const apiKeyKey = (keyHash: string): ItemKey => ({ pk: `APIKEY#${keyHash}`, sk: 'APIKEY' });

/** Key of a sending domain inside its project's partition. */
export const domainKey = (projectId: string, domain: string): ItemKey => ({
  pk: `PROJECT#${projectId}`,
  sk: `DOMAIN#${domain.toLowerCase()}`,
});

/** Key of a suppressed address inside its project's partition. */
export const suppressionKey = (projectId: string, email: string): ItemKey => ({
  pk: `PROJECT#${projectId}`,
  sk: `SUPP#${email.toLowerCase()}`,
});

/** Key of an activity record. */
export const activityKey = (activityId: string): ItemKey => ({ pk: `ACT#${activityId}`, sk: 'ACT' });

/** Key of an activity's body (compressed content), kept apart so status updates stay 1 WCU. */
export const activityBodyKey = (activityId: string): ItemKey => ({ pk: `ACT#${activityId}`, sk: 'BODY' });

/** Partition holding an activity record and its body. */
export const activityPartition = (activityId: string): string => `ACT#${activityId}`;

/** Sort keys within an activity partition. */
export const ACTIVITY_SK = 'ACT';
export const ACTIVITY_BODY_SK = 'BODY';
