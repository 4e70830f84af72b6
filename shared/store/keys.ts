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
 * | Activity record by id                | ACT#<activityId>       | ACT                | PutItem / UpdateItem   | 1 put + 1 claim + 1 sent|
 * | Activity body (html, text, lists)    | ACT#<activityId>       | BODY               | conditional PutItem    | ceil(gzip KB) at accept (batch mails: at the claim) |
 * | Activity with body (include=html)    | ACT#<activityId>       | (all)              | Query                  | 0                       |
 * | Activities of a project (gsi3)      | gsi3pk ACTS#<p>#<shard of recipient> | <created>#<id> | Query desc on all 16 shards, merged; BatchGet | 1 (index entry at put) |
 * | Activities to a recipient (gsi3)     | gsi3pk ACTS#<p>#<shard of recipient> | <created>#<id> | Query desc on 1 shard, filter recipient_primary (projected) | 0 (same entry) |
 * | Activities in a rare status (gsi5)   | gsi5pk ACTST#<p>#<st>#<shard of id> | <created>#<id> | sparse: bounced, complained, failed, suppressed, cancelled | 1 when entering one |
 * | Activities of a campaign / run (gsi6)| gsi6pk ACTC#<p>#<c|a>:<id>#<shard of id> | <created>#<id> | sparse        | 1 at put when set       |
 * | Engagement event (open, click)       | ACT#<activityId>       | EV#<time>#<hash>   | conditional PutItem    | 1 per open or click     |
 * | Sending domains of a project         | PROJECT#<projectId>    | DOMAIN#            | Query begins_with      | 0                       |
 * | Domains of a project, newest first (gsi4, keys only) | gsi4pk DOMAINLIST#<p> | gsi4sk <created>#<domain> | Query desc, paged; BatchGet the page | 1 index entry per registration (0 on later writes, which keep it) |
 * | Domains indexed marker (backfill)    | PROJECT#<projectId>    | DOMAINSINDEXED     | GetItem per domain list; Put once per project | 1 once (+ about 3 per older domain, once) |
 * | Domain owner (verified name -> project) | DOMAINCLAIM#<domain> | DOMAINCLAIM        | GetItem, conditional PutItem | 1 per domain verified |
 * | Domains due for a re-check (gsi1)    | gsi1pk DOMAINCHECK#<shard of domain> | gsi1sk <next check> | Query all 4 shards <= now | 1 per check (rare) |
 * | Every domain, for the DNS sweep (gsi2)| gsi2pk DOMAINS        | gsi2sk <domain>#<p>| Query gsi2, paged      | 0                       |
 * | Verification page token -> domain    | VERIFYPAGE#<token>     | VERIFYPAGE         | GetItem                | 1 per registration      |
 * | Sender profile of a project          | PROJECT#<projectId>    | SENDER#<email>     | GetItem / Query        | 1 to create or verify   |
 * | Sender confirmation link -> sender   | SENDERCONFIRM#<token>  | SENDERCONFIRM      | Put, GetItem           | 1 per mailbox request   |
 * | Senders awaiting mailbox confirmation (gsi1) | gsi1pk SENDERCHECK | gsi1sk <next check> | Query gsi1     | 1 per check (rare)      |
 * | Reply domain of a project            | PROJECT#<projectId>    | REPLYDOMAIN#<d>    | Query begins_with      | 1 to register           |
 * | Tracking domain of a project         | PROJECT#<projectId>    | TRACKDOMAIN#<d>    | Query begins_with      | 1 to register           |
 * | Tracking domains awaiting TLS (gsi1) | gsi1pk TRACKTLS        | gsi1sk <next check>| sparse: CNAME verified, TLS not active; Query gsi1 <= now | 1 per check (rare) |
 * | Domain send counters per day         | STAT#<p>#<random shard of 8> | STAT#<domain>#<day> | UpdateItem ADD, Query all shards | 1 per worker batch and domain |
 * | Project counters per hour (GET /v1/stats) | PSTAT#<p>#<random shard of 8> | <live|test>#<YYYY-MM-DDTHH> | UpdateItem ADD, Query a range on all shards | 1 per worker batch, hour and mode |
 * | Project events out (webhook outbox)  | (SQS events queue)     |                    |                        | 0                       |
 * | Console session (token hash -> key hash) | CONSOLESESSION#<sha256 token> | CONSOLESESSION | Put at sign-in, GetItem per console call, Delete at sign-out (TTL 8 h) | 1 per sign-in |
 * | Partner key record of an organization| ORG#<orgId>            | PKEY#<keyId>       | Put / Delete (revoke)  | 1 (rare)                |
 * | Client projects of an organization   | ORG#<orgId>            | PROJECT#<projectId>| Query begins_with      | 1 per project (in the creation transaction) |
 * | External key -> project (idempotency)| ORG#<orgId>            | EXTKEY#<key>       | conditional Put, Get   | 1 per project with a key |
 * | Failed webhook delivery of a project | PROJECT#<projectId>    | WHFAIL#<failed>#<id>| Put (TTL 30 d), Query desc | 1 per delivery failed for good |
 * | Webhook delivery attempt (log), with its gzipped payload for a redelivery | WHDLV#<p>#<shard of delivery id, 32> | <attempted>#<id>#<nn> | Put (TTL 3 d, item cut to 1 KB), Query desc on all 32 shards merged, GetItem by entry id | 1 per attempt |
 * | Inbound mail handled (dedupe)        | INBOUND#<s3 key>       | INBOUND            | conditional PutItem (TTL 30 d) | 1 per reply published or bounced |
 * | Template of a project                | PROJECT#<projectId>    | TPL#<uuid>         | versioned Put (in a transaction with its list entry), GetItem | 2 per KB per create or update (transactional) |
 * | Template list entry (no HTML; gsi1)  | PROJECT#<projectId>    | TPLENTRY#<uuid>    | Put in each template write's transaction; gsi1pk TPLS#<p>, gsi1sk <updated_at>#<internal id>; Query gsi1 desc | 2 (transactional) + 1 index per create, update or delete |
 * | Templates indexed marker (backfill)  | PROJECT#<projectId>    | TPLINDEXED         | GetItem per template list; Put once per project | 1 once |
 * | Template internal-id counter         | PROJECT#<projectId>    | TPLSEQ             | UpdateItem ADD (UPDATED_NEW) | 1 per create |
 * | Template internal id -> uuid         | PROJECT#<projectId>    | TPLNUM#<internalId>| conditional Put, GetItem | 1 per create |
 * | Template usage (campaign, automation)| PROJECT#<projectId>    | TPLUSE#<tpl>#<kind>#<id> | conditional Put in the user's creation transaction, Query begins_with | 2 (transactional) per use recorded, 2 per release |
 * | Template use count (delete guard)    | PROJECT#<projectId>    | TPLUSES#<tpl>      | ADD +1/-1 with each marker (same transaction); ConditionCheck uses <= 0 in a delete | 2 per use recorded or released |
 * | Scheduled send by id                 | SCHED#<id>             | SCHED              | Put, conditional Update| 1 to create, 1 per claim/patch/cancel |
 * | Scheduled sends due (gsi5, keys only)| gsi5pk SCHEDDUE#<shard of id> | gsi5sk <due>#<id> | sparse: pending only; Query all 32 shards <= now + lookahead | 1 index entry at create, 1 at claim |
 * | Scheduled sends of a project (gsi6, keys only) | gsi6pk SCHEDS#<p>#<mode>#<shard of id> | <scheduled_for>#<id> | Query per shard (16), merged; BatchGet the items | 1 at create, 2 per move |
 * | Pending scheduled sends of a project (gsi4, keys only) | gsi4pk SCHEDP#<p>#<mode>#<shard of id> | <scheduled_for>#<id> | sparse: pending only; Query per shard (32), merged soonest first | 1 at create, 1 at claim or cancel, 2 per move |
 * | Idempotency record (24 h)            | IDEMP#<p>#<sha256 key> | IDEMP              | conditional Put, Update, Delete (TTL 24 h) | 2 per request that carries the header |
 * | Batch send header (status, counts)   | BATCH#<batchId>        | BATCH              | Put, GetItem, conditional Update | 1 per batch, 1 per chunk of 500 fanned out, 1 per cancel/move |
 * | Scheduled batches due (gsi5, keys only) | gsi5pk SCHEDDUE#<shard> | gsi5sk <due>#batch:<id> | the scheduled sends' due index; sparse: scheduled batches only | 1 at create, 1 at fire |
 * | Batches of a project (gsi6, keys only) | gsi6pk BATCHES#<p>#<mode>#<shard of id> | <created>#<id> | sparse: API batches, not campaign waves; Query desc per shard (16), merged; BatchGet the headers | 1 at create |
 * | Batch recipients and content         | (blob store, not the table) | batches/<p>/<b>/... | S3 Put at accept, Get per chunk | 0 |
 * | Campaign recipientIds                | (blob store, not the table) | campaigns/<p>/<c>/ids.json | S3 Put at creation, Get by the engine | 0 |
 * | Monthly send usage of a project      | USAGE#<p>#<shard of 16>| USAGE#<yyyy-mm>    | conditional UpdateItem ADD on one shard's share | 1 per mail (more when shards fill), only when the project has a quota |
 * | Lead of a project (by email)         | LEADS#<p>#<shard>      | LEAD#<email lc>    | TransactWrite (cond.), BatchGet, Query begins_with (email prefix search) | 2 (transactional put) |
 * | Lead id -> email                     | LEADID#<p>#<id>        | LEADID             | in the lead's creation transaction, BatchGet | 2 at creation, 0 after |
 * | Leads newest first (gsi3, keys only) | gsi3pk LEADT#<p>#<shard>| <created>#<id>    | Query desc per shard, merged; BatchGet | 1 (index entry at creation) |
 * | Leads by name prefix (gsi4, keys only)| gsi4pk LEADN#<p>#<shard>| <name lc>#<email>| sparse: leads with a name; Query begins_with per shard | 1 while the lead has a name |
 * | Lead counter (project total)         | PROJECT#<projectId>    | LEADCOUNT#<n>      | ADD in the writing transaction; Query begins_with sums | 2 per transaction (not per lead) |
 * | Segment of a project                 | PROJECT#<projectId>    | SEG#<segmentId>    | Put and Delete in a transaction with the count, GetItem, BatchGet, Query begins_with | 2 (transactional) to create or delete, 1 to rename |
 * | Segment count of a project (cap 500) | PROJECT#<projectId>    | SEGTOTAL           | ADD +1 if below the cap / -1, in the segment's transaction; set once from a count where absent | 2 per segment created or deleted |
 * | Segment member counter               | PROJECT#<projectId>    | SEGCOUNT#<seg>#<n> | ADD in the writing transaction; Query begins_with sums | 2 per transaction and segment |
 * | Static membership (lead in segment)  | LEADSEG#<p>#<leadId>   | SEG#<segmentId>    | conditional Put/Delete in a transaction; Query (a lead's segments) | 2 + 1 (gsi2 entry) |
 * | Members of a segment (gsi2)          | gsi2pk SEGM#<p>#<seg>#<shard> | <created>#<leadId> | Query desc per shard, merged | (in the membership's 3) |
 * | Dynamic segment members of one run   | DSEG#<p>#<seg>#<gen>#<shard> | <email lc>   | BatchWrite while evaluating; Query per shard | 1 per member per evaluation |
 * | Custom event                         | EVT#<p>#<email lc>     | <timestamp>#<id>   | BatchWrite; Query desc (by email, since/until) | 1 + 2 index entries = 3 |
 * | Custom events by name (gsi5, keys)   | gsi5pk EVN#<p>#<event>#<shard> | <timestamp>#<id> | Query per shard (list by name; "did X within a period") | (in the event's 3) |
 * | Custom events of a project (gsi6)    | gsi6pk EVS#<p>#<shard> | <timestamp>#<id>   | Query desc per shard, merged | (in the event's 3) |
 * | Lead import of a project             | PROJECT#<projectId>    | LEADIMPORT#<id>    | Put, GetItem, conditional UpdateItem (checkpoint) | 1 to create, 1 per chunk of 1,000 rows |
 * | Row errors of a lead import          | LEADIMPORTERR#<p>#<id> | <row, 12 digits>   | BatchWrite per chunk (the first 10,000), Query in order | 1 per failed row (TTL 30 d) |
 * | Campaign                             | CAMPAIGN#<campaignId>  | CAMPAIGN           | Put (in the creation transaction: 2 + 1 gsi1), GetItem, conditional UpdateItem (engine steps, state moves) | 1 + 1 (gsi1 entry) per write; once per engine step, not per mail |
 * | Campaigns of a project (gsi1)        | gsi1pk CAMPAIGNS#<p>   | gsi1sk <created>#<id> | Query desc (list, duplicate windows: a range over the last 24 h) | (in the campaign's writes) |
 * | Campaign engine cursor               | CAMPAIGN#<campaignId>  | CURSOR             | conditional Put per engine step (after its mail is queued) | 1 per step |
 * | Campaign jobs held while paused      | CAMPAIGN#<campaignId>  | HELD#<jobId>       | Put when a paused campaign's job arrives, Query + Delete at resume | 1 per job of up to 50 mails (rare) |
 * | Campaign counters                    | CAMPSTAT#<campaignId>#<shard> | COUNTS      | ADD once per worker batch, random shard; Query-free GetItem of all 8 | 1 per batch of mails or events |
 * | Campaign send rate (deployment-wide) | RATE#campaigns         | RATE#<second>      | conditional ADD per engine step (tokens taken in that second) | 1 per step (TTL 1 h) |
 * | Campaign outcome export (CSV job)    | CAMPAIGN#<campaignId>  | EXPORT#<exportId>  | Put, GetItem, conditional UpdateItem per part (claim, checkpoint) | 1 to create, 2 per part of about 8 MB (60,000 rows), 1 to finish (TTL 7 d) |
 *
 * Domain items carry their DNS records (about 2 KB, 2 to 3 WCU a write); domains change rarely.
 *
 * Per single send through `delivered`: 1 (activity put) + 1 (its project-list entry, which also
 * serves the recipient filter) + ceil(gzip body / 1 KB) (body put at accept) + 1 (the worker's
 * claim, a conditional update of the record) + 1 (sent) + 1 (delivered) = 6 WCU for a typical mail
 * whose gzipped body is under 1 KB (a batch mail: 5, its claim is the body put), plus the
 * counters' share of a batch; see docs/cost.md and `npm run bench`.
 *
 * Sharding: no partition key, in the table or an index, may take more than 300 writes a second
 * while the deployment sends 3,000 mails a second, from one project or many (test/unit/shared/store/
 * partition-spread.test.ts). Keys that every mail of a project writes carry a shard: the activity
 * indexes (16, by recipient or by id), the daily counters STAT#, the hourly counters PSTAT# and the monthly quota USAGE#; the
 * deployment-wide SCHEDDUE and DOMAINCHECK partitions too. Readers query every shard and merge.
 *
 * Audience (docs/decisions.md, "Leads, segments and custom events"). Every key that every lead of a
 * project writes is sharded by a hash of the lowercased email into LEAD_SHARDS partitions (about
 * 1,000 writes a second each), read in parallel and merged. Write units: a new lead with a name is
 * 2 (lead, transactional) + 2 (id item) + 1 (gsi3) + 1 (gsi4) = 6, plus its share of one counter
 * ADD per transaction of up to 45 leads; an update of an existing lead is 2 (+1 when its name
 * changes). A membership is 2 (transactional put) + 1 (gsi2) = 3, plus one counter ADD per
 * transaction and segment. A custom event is 1 + 2 index entries = 3 (BatchWrite, not transactional).
 */

export interface ItemKey {
  pk: string;
  sk: string;
}

/** Key of an organization (a partner account). */
export const organizationKey = (organizationId: string): ItemKey => ({ pk: `ORG#${organizationId}`, sk: 'ORG' });

/** Key of the lookup item that maps a partner key's hash to its organization. */
export const partnerKeyKey = (keyHash: string): ItemKey => ({ pk: `PARTNERKEY#${keyHash}`, sk: 'PARTNERKEY' });
export const consoleSessionKey = (tokenHash: string): ItemKey => ({ pk: `CONSOLESESSION#${tokenHash}`, sk: 'CONSOLESESSION' });

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

/** Prefix of a project's sending-domain items (Query with begins_with). */
export const DOMAIN_SK_PREFIX = 'DOMAIN#';

/** Key of the item that ties a domain name to the one project that owns it. */
export const domainClaimKey = (domain: string): ItemKey => ({ pk: `DOMAINCLAIM#${domain.toLowerCase()}`, sk: 'DOMAINCLAIM' });

/** Key of the lookup from a public verification-page token to its domain. */
export const verificationPageKey = (token: string): ItemKey => ({ pk: `VERIFYPAGE#${token}`, sk: 'VERIFYPAGE' });

/** Shards of the deployment-wide re-check partition (a domain always lands on the same one). */
export const DOMAIN_CHECK_SHARDS = 4;

/** gsi1 partitions of the domains due for a re-check, one per shard. */
export const domainCheckPartitions = (): string[] => Array.from({ length: DOMAIN_CHECK_SHARDS }, (_, s) => `DOMAINCHECK#${s}`);

/** gsi1 attributes of a domain due for a re-check at `dueAt` (ISO); removed once it is final. */
export const domainCheckIndex = (dueAt: string, projectId: string, domain: string) => ({
  gsi1pk: `DOMAINCHECK#${shardOf(domain.toLowerCase(), DOMAIN_CHECK_SHARDS)}`,
  gsi1sk: `${dueAt}#${projectId}#${domain.toLowerCase()}`,
});

/** gsi4 attributes of a domain in its project's list, newest first (keys only; the list reads the page's items by key). */
export const domainListIndex = (projectId: string, createdAt: string, domain: string) => ({
  gsi4pk: `DOMAINLIST#${projectId}`,
  gsi4sk: `${createdAt}#${domain.toLowerCase()}`,
});

/** The gsi4 partition of a project's domains. */
export const domainListPartition = (projectId: string) => ({ index: 'gsi4', pkName: 'gsi4pk', skName: 'gsi4sk', pk: `DOMAINLIST#${projectId}` });

/** Key of the marker saying every domain of a project has its list entry (domains registered before the list existed get theirs once). */
export const domainsIndexedKey = (projectId: string): ItemKey => ({ pk: `PROJECT#${projectId}`, sk: 'DOMAINSINDEXED' });

/** Reads the domain name back from a domain's sort key. */
export const domainOfSortKey = (sk: string): string => sk.slice(DOMAIN_SK_PREFIX.length);

/** gsi2 partition that lists every domain for the DNS sweep. */
export const DOMAIN_SWEEP_PARTITION = 'DOMAINS';

/** gsi2 attributes that list every domain for the DNS sweep. */
export const domainSweepIndex = (projectId: string, domain: string) => ({
  gsi2pk: DOMAIN_SWEEP_PARTITION,
  gsi2sk: `${domain.toLowerCase()}#${projectId}`,
});

/** Key of a sender profile (one per address) inside its project's partition. */
export const senderKey = (projectId: string, email: string): ItemKey => ({ pk: `PROJECT#${projectId}`, sk: `SENDER#${email.toLowerCase()}` });

/** Prefix of a project's sender items. */
export const SENDER_SK_PREFIX = 'SENDER#';

/** Key of the lookup from a project's own sender-confirmation link token to its sender. */
export const senderConfirmationKey = (token: string): ItemKey => ({ pk: `SENDERCONFIRM#${token}`, sk: 'SENDERCONFIRM' });

/** gsi1 partition of the magic-link senders waiting for their owners. */
export const SENDER_CHECK_PARTITION = 'SENDERCHECK';

/** gsi1 attributes of a magic-link sender waiting for its owner to confirm. */
export const senderCheckIndex = (dueAt: string, projectId: string, email: string) => ({
  gsi1pk: SENDER_CHECK_PARTITION,
  gsi1sk: `${dueAt}#${projectId}#${email.toLowerCase()}`,
});

/** Key of a reply domain inside its project's partition. */
export const replyDomainKey = (projectId: string, domain: string): ItemKey => ({ pk: `PROJECT#${projectId}`, sk: `REPLYDOMAIN#${domain.toLowerCase()}` });

/** Prefix of a project's reply-domain items. */
export const REPLY_DOMAIN_SK_PREFIX = 'REPLYDOMAIN#';

/** Key of a tracking domain inside its project's partition. */
export const trackingDomainKey = (projectId: string, domain: string): ItemKey => ({ pk: `PROJECT#${projectId}`, sk: `TRACKDOMAIN#${domain.toLowerCase()}` });

/** Prefix of a project's tracking-domain items. */
export const TRACKING_DOMAIN_SK_PREFIX = 'TRACKDOMAIN#';

/** gsi1 partition of the tracking domains whose HTTPS (edge tenant and certificate) is not active yet. */
export const TRACKING_TLS_PARTITION = 'TRACKTLS';

/** gsi1 attributes of a tracking domain whose HTTPS is due for a check at `dueAt` (ISO). */
export const trackingTlsIndex = (dueAt: string, projectId: string, parentDomain: string) => ({
  gsi1pk: TRACKING_TLS_PARTITION,
  gsi1sk: `${dueAt}#${projectId}#${parentDomain.toLowerCase()}`,
});

/** Prefix of a project's daily sender-domain counters. */
export const DOMAIN_STAT_SK_PREFIX = 'STAT#';

/**
 * Shards of a project's counters: each worker batch adds to one shard chosen at random, so at 3,000
 * mails a second (300 send batches and 300 event batches a second) a shard takes about 75 writes.
 */
export const DOMAIN_STAT_SHARDS = 8;

/** Partition of one shard of a project's daily sender-domain counters. */
export const domainStatPartition = (projectId: string, shard: number): string => `STAT#${projectId}#${shard}`;

/** Every counter partition of a project (readers sum over them). */
export const domainStatPartitions = (projectId: string): string[] => Array.from({ length: DOMAIN_STAT_SHARDS }, (_, s) => domainStatPartition(projectId, s));

/** Key of one shard of a daily counter of one sender domain (UTC day, YYYY-MM-DD). */
export const domainStatKey = (projectId: string, domain: string, day: string, shard: number): ItemKey => ({
  pk: domainStatPartition(projectId, shard),
  sk: `${DOMAIN_STAT_SK_PREFIX}${domain.toLowerCase()}#${day}`,
});

/** Sort-key bounds of one domain's counters between two days (inclusive). */
export const domainStatRange = (domain: string, fromDay: string, toDay: string) => ({
  from: `${DOMAIN_STAT_SK_PREFIX}${domain.toLowerCase()}#${fromDay}`,
  to: `${DOMAIN_STAT_SK_PREFIX}${domain.toLowerCase()}#${toDay}`,
});

/**
 * Shards of a project's hourly counters (GET /v1/stats): like the domain counters, each worker batch
 * adds to one shard at random, in partitions of their own so that the two counters' writes never
 * share a partition (about 75 writes a second each at 3,000 mails a second from one project).
 */
export const PROJECT_STAT_SHARDS = 8;

/** Partition of one shard of a project's hourly counters. */
export const projectStatPartition = (projectId: string, shard: number): string => `PSTAT#${projectId}#${shard}`;

/** Every hourly-counter partition of a project (readers sum over them). */
export const projectStatPartitions = (projectId: string): string[] => Array.from({ length: PROJECT_STAT_SHARDS }, (_, s) => projectStatPartition(projectId, s));

/** Key of one shard of a project's counter for one UTC hour (`YYYY-MM-DDTHH`), live and test traffic apart. */
export const projectStatKey = (projectId: string, mode: 'live' | 'test', hour: string, shard: number): ItemKey => ({
  pk: projectStatPartition(projectId, shard),
  sk: `${mode}#${hour}`,
});

/** Sort-key bounds of a mode's hourly counters between two hours (inclusive). */
export const projectStatRange = (mode: 'live' | 'test', fromHour: string, toHour: string) => ({ from: `${mode}#${fromHour}`, to: `${mode}#${toHour}` });

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

/** The statuses rare enough to get their own sparse index entry (gsi5); the rest are filtered in memory. */
export const RARE_STATUSES = ['bounced', 'complained', 'failed', 'suppressed', 'cancelled'] as const;

/**
 * Shards of every activity index partition. A partition takes about 1,000 writes a second and the
 * goal is at most 300: at 3,000 mails a second from one project, 16 shards take about 190 each.
 */
export const ACTIVITY_INDEX_SHARDS = 16;

/** A stable shard number in [0, shards) for `text` (FNV-1a): the same text always lands on the same shard. */
export function shardOf(text: string, shards: number): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    hash ^= text.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193);
  }
  return (hash >>> 0) % shards;
}

/** Every shard number below `shards`. */
const allShards = (shards: number) => Array.from({ length: shards }, (_, i) => i);

/** Sort key shared by the activity indexes: newest first when read backwards. */
const activitySort = (createdAt: string, id: string) => `${createdAt}#${id}`;

/**
 * Index attributes written with a new activity record: the project list, and its campaign or run.
 * The project list is sharded by recipient and carries `recipient_primary` (gsi3 projects it), so
 * the recipient filter reads one shard and filters on it: one index serves both, one entry per mail.
 */
export function activityIndexes(a: { project_id: string; id: string; created_at: string; recipient_primary: string; campaign_id?: string; automation_run_id?: string }) {
  const sort = activitySort(a.created_at, a.id);
  const attributes: Record<string, string> = {
    gsi3pk: `ACTS#${a.project_id}#${shardOf(a.recipient_primary.toLowerCase(), ACTIVITY_INDEX_SHARDS)}`,
    gsi3sk: sort,
  };
  const group = a.campaign_id ? `c:${a.campaign_id}` : a.automation_run_id ? `a:${a.automation_run_id}` : undefined;
  if (group) Object.assign(attributes, { gsi6pk: `ACTC#${a.project_id}#${group}#${shardOf(a.id, ACTIVITY_INDEX_SHARDS)}`, gsi6sk: sort });
  return attributes;
}

/** gsi5 attributes of an activity in one of the rare statuses (sharded by id: a bad list can bounce every mail). */
export const activityStatusIndex = (projectId: string, status: string, createdAt: string, id: string) => ({
  gsi5pk: `ACTST#${projectId}#${status}#${shardOf(id, ACTIVITY_INDEX_SHARDS)}`,
  gsi5sk: activitySort(createdAt, id),
});

/** Where a filtered activity list reads: the index, its shard partitions, and a key filter if any. */
export interface ActivityListPartition {
  index: string;
  pkName: string;
  skName: string;
  /** Every partition to read; their entries merge newest first. */
  pks: string[];
  /** A condition on an attribute the index projects (a FilterExpression, with its values). */
  filter?: { expression: string; names: Record<string, string>; values: Record<string, string> };
}

/** Index partitions for listing activity by a filter. */
export const activityListPartition = {
  project: (projectId: string): ActivityListPartition => ({
    index: 'gsi3',
    pkName: 'gsi3pk',
    skName: 'gsi3sk',
    pks: allShards(ACTIVITY_INDEX_SHARDS).map((s) => `ACTS#${projectId}#${s}`),
  }),
  recipient: (projectId: string, email: string): ActivityListPartition => ({
    index: 'gsi3',
    pkName: 'gsi3pk',
    skName: 'gsi3sk',
    pks: [`ACTS#${projectId}#${shardOf(email.toLowerCase(), ACTIVITY_INDEX_SHARDS)}`],
    filter: { expression: '#recipient = :recipient', names: { '#recipient': 'recipient_primary' }, values: { ':recipient': email.toLowerCase() } },
  }),
  status: (projectId: string, status: string): ActivityListPartition => ({
    index: 'gsi5',
    pkName: 'gsi5pk',
    skName: 'gsi5sk',
    pks: allShards(ACTIVITY_INDEX_SHARDS).map((s) => `ACTST#${projectId}#${status}#${s}`),
  }),
  campaign: (projectId: string, campaignId: string): ActivityListPartition => ({
    index: 'gsi6',
    pkName: 'gsi6pk',
    skName: 'gsi6sk',
    pks: allShards(ACTIVITY_INDEX_SHARDS).map((s) => `ACTC#${projectId}#c:${campaignId}#${s}`),
  }),
  automationRun: (projectId: string, runId: string): ActivityListPartition => ({
    index: 'gsi6',
    pkName: 'gsi6pk',
    skName: 'gsi6sk',
    pks: allShards(ACTIVITY_INDEX_SHARDS).map((s) => `ACTC#${projectId}#a:${runId}#${s}`),
  }),
};

/** Key of an engagement event (open or click) of an activity, kept apart so opens never grow the record. */
export const engagementEventKey = (activityId: string, timestamp: string, discriminator: string): ItemKey => ({
  pk: `ACT#${activityId}`,
  sk: `EV#${timestamp}#${discriminator}`,
});

/** Prefix of an activity's engagement events. */
export const ENGAGEMENT_SK_PREFIX = 'EV#';

/** Prefix of a project's suppression entries. */
export const SUPPRESSION_SK_PREFIX = 'SUPP#';

/** Key of a webhook delivery that failed for good, in its project's partition; sorts by failure time. */
export const webhookFailureKey = (projectId: string, failedAt: string, deliveryId: string): ItemKey => ({
  pk: `PROJECT#${projectId}`,
  sk: `WHFAIL#${failedAt}#${deliveryId}`,
});

/** Prefix of a project's failed webhook deliveries (Query backwards for newest first). */
export const WEBHOOK_FAILURE_SK_PREFIX = 'WHFAIL#';

/**
 * Shards of a project's webhook delivery log: every attempt of every delivery writes one entry, and a
 * mail makes two or three deliveries (email.send, email.delivery, an open...), so at 3,000 mails a
 * second from one project the log takes about 9,000 writes: 32 shards take about 280 each. Retries
 * do not raise that: the webhooks worker's concurrency caps attempts a second (about 10,000 with
 * receivers answering in 50 ms), and a failing receiver is slower, not faster.
 */
export const WEBHOOK_DELIVERY_SHARDS = 32;

/** Every log partition of a project (the list reads them all and merges newest first). */
export const webhookDeliveryPartitions = (projectId: string): string[] => allShards(WEBHOOK_DELIVERY_SHARDS).map((s) => `WHDLV#${projectId}#${s}`);

/** The log partition of a delivery: all its attempts are in one shard, chosen by its id. */
export const webhookDeliveryPartition = (projectId: string, deliveryId: string): string => `WHDLV#${projectId}#${shardOf(deliveryId, WEBHOOK_DELIVERY_SHARDS)}`;

/**
 * Key of one delivery attempt in its project's log: sharded by the delivery id, sorted by attempt
 * time, so a partition read backwards is newest first. The project is part of the partition, so a
 * redelivery that names an entry can only ever read the caller's own.
 */
export const webhookDeliveryKey = (projectId: string, deliveryId: string, attemptedAt: string, attempt: number): ItemKey => ({
  pk: webhookDeliveryPartition(projectId, deliveryId),
  sk: `${attemptedAt}#${deliveryId}#${String(attempt).padStart(2, '0')}`,
});

/** Key of the marker that an inbound mail (an S3 object of the inbound bucket) was handled: a redelivered S3 event finds it. */
export const inboundMailKey = (objectKey: string): ItemKey => ({ pk: `INBOUND#${objectKey}`, sk: 'INBOUND' });

/** Key of a template inside its project's partition. */
export const templateKey = (projectId: string, templateId: string): ItemKey => ({ pk: `PROJECT#${projectId}`, sk: `TPL#${templateId}` });

/** Prefix of a project's template items. */
export const TEMPLATE_SK_PREFIX = 'TPL#';

/**
 * Key of a template's list entry: the template without its HTML, plus its lowercased name, written in
 * the transaction of every template write. Its gsi1 attributes (templateListIndex) order the
 * project's templates by update time; the list filters on `name_lc` and answers from the entry.
 */
export const templateEntryKey = (projectId: string, templateId: string): ItemKey => ({ pk: `PROJECT#${projectId}`, sk: `TPLENTRY#${templateId}` });

/** gsi1 attributes of a template's list entry: newest update first, the internal id (zero-padded) breaking ties as before. */
export const templateListIndex = (projectId: string, updatedAt: string, internalId: number) => ({
  gsi1pk: `TPLS#${projectId}`,
  gsi1sk: `${updatedAt}#${String(internalId).padStart(12, '0')}`,
});

/** The gsi1 partition of a project's template entries. */
export const templateListPartition = (projectId: string) => ({ index: 'gsi1', pkName: 'gsi1pk', skName: 'gsi1sk', pk: `TPLS#${projectId}` });

/** Key of the marker that every template of a project written before list entries existed has one now. */
export const templatesIndexedKey = (projectId: string): ItemKey => ({ pk: `PROJECT#${projectId}`, sk: 'TPLINDEXED' });

/** Key of the per-project counter that allocates template internal ids (UpdateItem ADD). */
export const templateCounterKey = (projectId: string): ItemKey => ({ pk: `PROJECT#${projectId}`, sk: 'TPLSEQ' });

/** Key of the lookup from a template's internal id to its uuid. */
export const templateNumberKey = (projectId: string, internalId: number): ItemKey => ({ pk: `PROJECT#${projectId}`, sk: `TPLNUM#${internalId}` });

/** Key of a marker that a campaign or automation step uses a template. */
export const templateUsageKey = (projectId: string, templateId: string, kind: 'campaign' | 'automation', usedById: string): ItemKey => ({
  pk: `PROJECT#${projectId}`,
  sk: `TPLUSE#${templateId}#${kind}#${usedById}`,
});

/** Key of a template's count of usage markers: a non-forced delete checks it in its transaction, so a use recorded concurrently is never lost. */
export const templateUsesKey = (projectId: string, templateId: string): ItemKey => ({ pk: `PROJECT#${projectId}`, sk: `TPLUSES#${templateId}` });

/** Prefix of the usage markers of one template. */
export const templateUsagePrefix = (templateId: string): string => `TPLUSE#${templateId}#`;

/** Key of a scheduled send (part 2); the item names its project, and reads check it. */
export const scheduledSendKey = (id: string): ItemKey => ({ pk: `SCHED#${id}`, sk: 'SCHED' });

/**
 * Shards of the deployment-wide due index (gsi5 is keys-only, so an entry costs 1 WCU): 3,000
 * scheduled sends a second write 6,000 entries (creation and claim), about 190 per shard.
 */
export const SCHEDULED_DUE_SHARDS = 32;

/** gsi5 partitions of the scheduled-sends due index; the sweep reads them all. */
export const scheduledDuePartitions = (): string[] => Array.from({ length: SCHEDULED_DUE_SHARDS }, (_, s) => `SCHEDDUE#${s}`);

/** gsi5 attributes of a pending scheduled send due at `dueAt` (ISO UTC); removed when it is claimed or cancelled. */
export const scheduledDueIndex = (dueAt: string, id: string) => ({
  gsi5pk: `SCHEDDUE#${shardOf(id, SCHEDULED_DUE_SHARDS)}`,
  gsi5sk: `${dueAt}#${id}`,
});

/** Reads a due-index sort key back into its time and id; undefined for anything this module did not write. */
export function parseScheduledDueSortKey(sortKey: string): { id: string; scheduledFor: string } | undefined {
  const cut = sortKey.indexOf('#');
  if (cut < 0) return undefined;
  const scheduledFor = sortKey.slice(0, cut);
  const id = sortKey.slice(cut + 1);
  if (Number.isNaN(Date.parse(scheduledFor)) || scheduledDueIndex(scheduledFor, id).gsi5sk !== sortKey) return undefined;
  return { id, scheduledFor };
}

/**
 * Shards of a project's scheduled-send list (gsi6, keys only): 3,000 sends scheduled a second by one
 * project write about 190 entries a shard.
 */
export const SCHEDULED_LIST_SHARDS = 16;

/**
 * Shards of a project's pending scheduled sends (gsi4, keys only, sparse): every send writes its
 * entry when scheduled and deletes it when claimed, 6,000 writes a second at 3,000 sends a second,
 * about 190 a shard.
 */
export const SCHEDULED_PENDING_SHARDS = 32;

/** Sort key of both scheduled-send lists: the time, then the id (unique, and ordered by time). */
export const scheduledListSortKey = (scheduledFor: string, id: string): string => `${scheduledFor}#${id}`;

/**
 * gsi6 attributes of a scheduled send: its project's list in its key's mode (a test key lists only
 * test sends), by `scheduled_for`. Rewritten only when the send is moved.
 */
export const scheduledListIndex = (s: { id: string; project_id: string; mode: string; scheduled_for: string }) => ({
  gsi6pk: `SCHEDS#${s.project_id}#${s.mode}#${shardOf(s.id, SCHEDULED_LIST_SHARDS)}`,
  gsi6sk: scheduledListSortKey(s.scheduled_for, s.id),
});

/** gsi4 attributes of a pending scheduled send (the list's `status=pending`); removed when it is claimed or cancelled. */
export const scheduledPendingIndex = (s: { id: string; project_id: string; mode: string; scheduled_for: string }) => ({
  gsi4pk: `SCHEDP#${s.project_id}#${s.mode}#${shardOf(s.id, SCHEDULED_PENDING_SHARDS)}`,
  gsi4sk: scheduledListSortKey(s.scheduled_for, s.id),
});

/** An index partition family, one partition per shard, read side by side and merged. */
export interface ShardedListPartitions {
  readonly index: string;
  readonly pkName: string;
  readonly skName: string;
  readonly pks: readonly string[];
}

/** The partitions of a project's scheduled sends in one mode: all of them, or only the pending ones. */
export const scheduledListPartitions = {
  all: (projectId: string, mode: string): ShardedListPartitions => ({
    index: 'gsi6', pkName: 'gsi6pk', skName: 'gsi6sk', pks: allShards(SCHEDULED_LIST_SHARDS).map((s) => `SCHEDS#${projectId}#${mode}#${s}`),
  }),
  pending: (projectId: string, mode: string): ShardedListPartitions => ({
    index: 'gsi4', pkName: 'gsi4pk', skName: 'gsi4sk', pks: allShards(SCHEDULED_PENDING_SHARDS).map((s) => `SCHEDP#${projectId}#${mode}#${s}`),
  }),
};

/** Key of an Idempotency-Key record of a project; the key is hashed, so any 1 to 256 characters fit. */
export const idempotencyKey = (projectId: string, keyHash: string): ItemKey => ({ pk: `IDEMP#${projectId}#${keyHash}`, sk: 'IDEMP' });

/**
 * Shards of a project's monthly send counter. Each holds an even share of the quota, and a mail
 * takes a unit from one of them (another when that one is full): at 3,000 mails a second a shard
 * takes about 190 writes.
 */
export const MONTHLY_USAGE_SHARDS = 16;

/** Key of one shard of a project's send counter for one calendar month (UTC, `yyyy-mm`). */
export const monthlyUsageKey = (projectId: string, month: string, shard: number): ItemKey => ({ pk: `USAGE#${projectId}#${shard}`, sk: `USAGE#${month}` });

/** Partitions of every per-lead key of a project (lead items, list and search indexes, events indexes). */
export const LEAD_SHARDS = 16;

/** Shards of the counters written by transactions (so that concurrent transactions rarely touch the same item). */
export const COUNTER_SHARDS = 16;

/** The shard of a lowercased email: a stable hash, so that a lead always lives in the same partition. */
export function leadShard(emailLc: string): number {
  // FNV-1a, 32 bits: cheap, stable across runtimes, spreads addresses evenly.
  let hash = 0x811c9dc5;
  for (let i = 0; i < emailLc.length; i++) {
    hash ^= emailLc.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193);
  }
  return (hash >>> 0) % LEAD_SHARDS;
}

/** Every shard number, for reads that fan out over them. */
export const leadShards = (): number[] => Array.from({ length: LEAD_SHARDS }, (_, i) => i);

/** Partition of the leads of one shard of a project. */
export const leadPartition = (projectId: string, shard: number): string => `LEADS#${projectId}#${shard}`;

/** Prefix of lead sort keys; the rest is the lowercased email (Query begins_with for an email prefix search). */
export const LEAD_SK_PREFIX = 'LEAD#';

/** Key of a lead: the lowercased email decides both partition and sort key, so an address has one item per project. */
export const leadKey = (projectId: string, emailLc: string): ItemKey => ({ pk: leadPartition(projectId, leadShard(emailLc)), sk: `${LEAD_SK_PREFIX}${emailLc}` });

/** Key of the lookup from a lead's id to its email. */
export const leadIdKey = (projectId: string, leadId: string): ItemKey => ({ pk: `LEADID#${projectId}#${leadId}`, sk: 'LEADID' });

/** Index attributes of a lead: the newest-first list (gsi3) and, when it has a name, the name search (gsi4). */
export function leadIndexes(projectId: string, lead: { id: string; email: string; created_at: string; name_lc?: string }) {
  const shard = leadShard(lead.email);
  const attributes: Record<string, string> = { gsi3pk: `LEADT#${projectId}#${shard}`, gsi3sk: `${lead.created_at}#${lead.id}` };
  if (lead.name_lc) Object.assign(attributes, { gsi4pk: `LEADN#${projectId}#${shard}`, gsi4sk: `${lead.name_lc}#${lead.email}` });
  return attributes;
}

/** Index partitions of a project's leads, per shard. */
export const leadListPartition = {
  newest: (projectId: string, shard: number) => ({ index: 'gsi3', pkName: 'gsi3pk', skName: 'gsi3sk', pk: `LEADT#${projectId}#${shard}` }),
  name: (projectId: string, shard: number) => ({ index: 'gsi4', pkName: 'gsi4pk', skName: 'gsi4sk', pk: `LEADN#${projectId}#${shard}` }),
};

/** Reads the email back from a lead's sort key. */
export const emailOfLeadSortKey = (sk: string): string => sk.slice(LEAD_SK_PREFIX.length);

/** Prefix of a project's lead counter shards. */
export const LEAD_COUNT_SK_PREFIX = 'LEADCOUNT#';

/** Key of one shard of a project's lead counter. */
export const leadCounterKey = (projectId: string, shard: number): ItemKey => ({ pk: `PROJECT#${projectId}`, sk: `${LEAD_COUNT_SK_PREFIX}${shard}` });

/** Key of a segment inside its project's partition. */
export const segmentKey = (projectId: string, segmentId: string): ItemKey => ({ pk: `PROJECT#${projectId}`, sk: `SEG#${segmentId}` });

/** Prefix of a project's segments. */
export const SEGMENT_SK_PREFIX = 'SEG#';

/** Key of a project's segment count: the cap is a condition on it in the transaction that creates a segment. */
export const segmentTotalKey = (projectId: string): ItemKey => ({ pk: `PROJECT#${projectId}`, sk: 'SEGTOTAL' });

/** Prefix of a project's segment member counters (all segments). */
export const SEGMENT_COUNT_SK_PREFIX = 'SEGCOUNT#';

/** Key of one shard of a segment's member counter. */
export const segmentCounterKey = (projectId: string, segmentId: string, shard: number): ItemKey => ({
  pk: `PROJECT#${projectId}`,
  sk: `${SEGMENT_COUNT_SK_PREFIX}${segmentId}#${shard}`,
});

/** Reads the segment id back from a member counter's sort key. */
export const segmentOfCounterSortKey = (sk: string): string => sk.slice(SEGMENT_COUNT_SK_PREFIX.length).split('#')[0];

/** Key of a lead's membership of a static segment, in the lead's own partition (its segment_ids are one Query). */
export const membershipKey = (projectId: string, leadId: string, segmentId: string): ItemKey => ({ pk: `LEADSEG#${projectId}#${leadId}`, sk: `SEG#${segmentId}` });

/** Partition of a lead's memberships. */
export const membershipPartition = (projectId: string, leadId: string): string => `LEADSEG#${projectId}#${leadId}`;

/** Reads the lead id back from a membership's partition. */
export const leadOfMembershipPartition = (pk: string): string => pk.slice(pk.lastIndexOf('#') + 1);

/** Reads the segment id back from a membership's sort key. */
export const segmentOfMembershipSortKey = (sk: string): string => sk.slice(SEGMENT_SK_PREFIX.length);

/** gsi2 attributes of a membership: the segment's members, newest lead first, sharded by the lead id (which an email change keeps). */
export const membershipIndex = (projectId: string, segmentId: string, lead: { id: string; created_at: string }) => ({
  gsi2pk: `SEGM#${projectId}#${segmentId}#${leadShard(lead.id)}`,
  gsi2sk: `${lead.created_at}#${lead.id}`,
});

/** gsi2 partition of one shard of a segment's members. */
export const segmentMembersPartition = (projectId: string, segmentId: string, shard: number) => ({
  index: 'gsi2', pkName: 'gsi2pk', skName: 'gsi2sk', pk: `SEGM#${projectId}#${segmentId}#${shard}`,
});

/** Partition of one shard of the members a dynamic segment's evaluation `generation` found. */
export const dynamicMembersPartition = (projectId: string, segmentId: string, generation: number, shard: number): string =>
  `DSEG#${projectId}#${segmentId}#${generation}#${shard}`;

/** Key of a member found by a dynamic segment's evaluation. */
export const dynamicMemberKey = (projectId: string, segmentId: string, generation: number, emailLc: string): ItemKey => ({
  pk: dynamicMembersPartition(projectId, segmentId, generation, leadShard(emailLc)),
  sk: emailLc,
});

/** Partition of a lead's custom events (by lowercased email). */
export const customEventPartition = (projectId: string, emailLc: string): string => `EVT#${projectId}#${emailLc}`;

/** Reads the email back from a custom event's partition. */
export const emailOfCustomEventPartition = (projectId: string, pk: string): string => pk.slice(`EVT#${projectId}#`.length);

/** Key of a custom event, sorting by its timestamp. */
export const customEventKey = (projectId: string, emailLc: string, timestamp: string, id: string): ItemKey => ({
  pk: customEventPartition(projectId, emailLc),
  sk: `${timestamp}#${id}`,
});

/** Index attributes of a custom event: by name (gsi5) and the project's list (gsi6), sharded by the email. */
export const customEventIndexes = (projectId: string, e: { email: string; event: string; timestamp: string; id: string }) => ({
  gsi5pk: `EVN#${projectId}#${e.event}#${leadShard(e.email)}`,
  gsi5sk: `${e.timestamp}#${e.id}`,
  gsi6pk: `EVS#${projectId}#${leadShard(e.email)}`,
  gsi6sk: `${e.timestamp}#${e.id}`,
});

/** Index partitions of a project's custom events, per shard. */
export const customEventListPartition = {
  byName: (projectId: string, event: string, shard: number) => ({ index: 'gsi5', pkName: 'gsi5pk', skName: 'gsi5sk', pk: `EVN#${projectId}#${event}#${shard}` }),
  project: (projectId: string, shard: number) => ({ index: 'gsi6', pkName: 'gsi6pk', skName: 'gsi6sk', pk: `EVS#${projectId}#${shard}` }),
};

/** Key of a batch send's header item (part 4.3); recipients and content are in the blob store. */
export const batchKey = (batchId: string): ItemKey => ({ pk: `BATCH#${batchId}`, sk: 'BATCH' });

/** Shards of a project's batch list: even 3,000 one-recipient batches a second write about 190 entries a shard. */
export const BATCH_LIST_SHARDS = 16;

/**
 * gsi6 attributes of a batch sent through the API (a campaign's waves are listed by their campaign):
 * its project's list in its key's mode, newest first. Written once: nothing a batch changes is in it.
 */
export const batchListIndex = (b: { id: string; project_id: string; mode: string; created_at: string }) => ({
  gsi6pk: `BATCHES#${b.project_id}#${b.mode}#${shardOf(b.id, BATCH_LIST_SHARDS)}`,
  gsi6sk: `${b.created_at}#${b.id}`,
});

/** The gsi6 partitions of a project's batches in one mode. */
export const batchListPartitions = (projectId: string, mode: string): ShardedListPartitions => ({
  index: 'gsi6', pkName: 'gsi6pk', skName: 'gsi6sk', pks: allShards(BATCH_LIST_SHARDS).map((s) => `BATCHES#${projectId}#${mode}#${s}`),
});

/** Marks a batch's entries in the scheduled sends' due index, which the sweep shares with them. */
const BATCH_DUE_PREFIX = 'batch:';

/** The id under which a scheduled batch sits in the due index (and its fire messages name it). */
export const scheduledBatchDueId = (batchId: string): string => `${BATCH_DUE_PREFIX}${batchId}`;

/** gsi5 attributes of a scheduled batch due at `dueAt` (ISO UTC); removed when it fires or is cancelled. */
export const scheduledBatchDueIndex = (dueAt: string, batchId: string) => scheduledDueIndex(dueAt, scheduledBatchDueId(batchId));

/** The batch id a due-index id names, or undefined when it names a scheduled send. */
export const batchOfDueId = (dueId: string): string | undefined => (dueId.startsWith(BATCH_DUE_PREFIX) ? dueId.slice(BATCH_DUE_PREFIX.length) : undefined);

/** Key of a lead import (its state, counts and checkpoint) inside its project's partition. */
export const leadImportKey = (projectId: string, importId: string): ItemKey => ({ pk: `PROJECT#${projectId}`, sk: `LEADIMPORT#${importId}` });

/** Partition of a lead import's row errors, sorted by row number. */
export const leadImportErrorPartition = (projectId: string, importId: string): string => `LEADIMPORTERR#${projectId}#${importId}`;

/** Key of one failed row of an import: the row number zero-padded, so a Query reads them in file order and a replayed chunk rewrites the same item. */
export const leadImportErrorKey = (projectId: string, importId: string, row: number): ItemKey => ({
  pk: leadImportErrorPartition(projectId, importId),
  sk: String(row).padStart(12, '0'),
});

/** Object key of an import's uploaded file in the payload bucket. */
export const leadImportObjectKey = (projectId: string, importId: string): string => `imports/${projectId}/${importId}`;

/** Key of a campaign's item (part 2, Campaign). */
export const campaignKey = (campaignId: string): ItemKey => ({ pk: `CAMPAIGN#${campaignId}`, sk: 'CAMPAIGN' });

/** Object key of a campaign's `recipientIds` (deduplicated lead ids, JSON) in the payload bucket. */
export const campaignIdsObjectKey = (projectId: string, campaignId: string): string => `campaigns/${projectId}/${campaignId}/ids.json`;

/** gsi1 attributes of a campaign: its project's campaigns, newest first (list, duplicate windows). */
export const campaignListIndex = (projectId: string, createdAt: string, campaignId: string) => ({ gsi1pk: `CAMPAIGNS#${projectId}`, gsi1sk: `${createdAt}#${campaignId}` });

/** The gsi1 partition of a project's campaigns. */
export const campaignListPartition = (projectId: string) => ({ index: 'gsi1', pkName: 'gsi1pk', skName: 'gsi1sk', pk: `CAMPAIGNS#${projectId}` });

/** Key of a campaign's engine cursor (its position in the frozen audience), apart from the campaign so reads of the campaign stay small. */
export const campaignCursorKey = (campaignId: string): ItemKey => ({ pk: `CAMPAIGN#${campaignId}`, sk: 'CURSOR' });

/** Key of a send job of a paused campaign, held until the campaign resumes. */
export const campaignHeldJobKey = (campaignId: string, jobId: string): ItemKey => ({ pk: `CAMPAIGN#${campaignId}`, sk: `HELD#${jobId}` });

/** Prefix of a campaign's held jobs. */
export const CAMPAIGN_HELD_SK_PREFIX = 'HELD#';

/** Shards of a campaign's counters: a 3,000-mail-a-second campaign writes each about 40 times a second. */
export const CAMPAIGN_COUNTER_SHARDS = 8;

/** Key of one shard of a campaign's counters. */
export const campaignCounterKey = (campaignId: string, shard: number): ItemKey => ({ pk: `CAMPSTAT#${campaignId}#${shard}`, sk: 'COUNTS' });

/** Keys of every shard of a campaign's counters (BatchGet and sum). */
export const campaignCounterKeys = (campaignId: string): ItemKey[] => allShards(CAMPAIGN_COUNTER_SHARDS).map((s) => campaignCounterKey(campaignId, s));

/** Key of the deployment-wide campaign send rate's tokens taken in one second (epoch seconds). */
export const campaignRateKey = (epochSecond: number): ItemKey => ({ pk: 'RATE#campaigns', sk: `RATE#${epochSecond}` });

/** Key of an outcome export of a campaign (its state and checkpoint; the CSV itself is in the payload bucket). */
export const campaignExportKey = (campaignId: string, exportId: string): ItemKey => ({ pk: `CAMPAIGN#${campaignId}`, sk: `EXPORT#${exportId}` });

/** The pointer to a campaign's latest export: at most one export of a campaign runs at a time. */
export const campaignRunningExportKey = (campaignId: string): ItemKey => ({ pk: `CAMPAIGN#${campaignId}`, sk: 'EXPORT_RUNNING' });

/** Object key of a campaign export's CSV in the payload bucket. */
export const campaignExportObjectKey = (projectId: string, campaignId: string, exportId: string): string => `exports/${projectId}/${campaignId}/${exportId}.csv`;
