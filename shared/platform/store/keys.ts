/**
 * Every key format of the single table, and nothing else writes a key string: what the aggregate
 * definitions (shared/platform/store/aggregates/, one per stored thing, with its indexes, TTL and state
 * transitions) generate, under the names the rest of the code has always imported.
 *
 * Generic attributes: `pk`, `sk` (and `ttl`, epoch seconds, for expiring items). Every key starts
 * with its entity's prefix. Write units (WCU) assume on-demand mode and items under 1 KB unless
 * noted; a conditional write that fails still costs its units.
 *
 * The access-pattern table (entity, pk, sk, operation, WCU per call) is generated from the rows each
 * definition file keeps beside its aggregates: docs/access-patterns.md (`npx tsx
 * scripts/access-patterns.ts`; a unit test fails when it is stale).
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

export type { ItemKey } from './aggregate-definition';
export { COUNTER_SHARDS, LEAD_SHARDS, leadShard, leadShards, shardOf, type ShardedListPartitions } from './aggregates/shards';
export type { ActivityListPartition } from './aggregates/activity';

export { organizationKey, partnerKeyKey, partnerKeyRecordKey, PARTNER_KEY_RECORD_PREFIX, organizationProjectKey, ORGANIZATION_PROJECT_PREFIX, externalKeyKey } from './aggregates/tenancy';
export { consoleSessionKey } from './aggregates/tenancy';
export { projectKey, apiKeyKey } from './aggregates/tenancy';
export {
  domainKey, DOMAIN_SK_PREFIX, domainClaimKey, verificationPageKey, DOMAIN_CHECK_SHARDS, domainCheckPartitions, domainCheckIndex, domainListIndex, domainListPartition,
  domainsIndexedKey, domainOfSortKey, DOMAIN_SWEEP_PARTITION, domainSweepIndex,
} from './aggregates/identities';
export { senderKey, SENDER_SK_PREFIX, senderConfirmationKey, SENDER_CHECK_PARTITION, senderCheckIndex } from './aggregates/identities';
export { replyDomainKey, REPLY_DOMAIN_SK_PREFIX } from './aggregates/identities';
export { trackingDomainKey, TRACKING_DOMAIN_SK_PREFIX, TRACKING_TLS_PARTITION, trackingTlsIndex } from './aggregates/identities';
export { DOMAIN_STAT_SK_PREFIX, DOMAIN_STAT_SHARDS, domainStatPartition, domainStatPartitions, domainStatKey, domainStatRange } from './aggregates/counters';
export { PROJECT_STAT_SHARDS, projectStatPartition, projectStatPartitions, projectStatKey, projectStatRange } from './aggregates/counters';
export { MONTHLY_USAGE_SHARDS, monthlyUsageKey } from './aggregates/counters';
export {
  activityKey, activityBodyKey, activityPartition, ACTIVITY_SK, ACTIVITY_BODY_SK, RARE_STATUSES, ACTIVITY_INDEX_SHARDS, activityIndexes, activityStatusIndex,
  activityListPartition, engagementEventKey, ENGAGEMENT_SK_PREFIX,
} from './aggregates/activity';
export { suppressionKey, SUPPRESSION_SK_PREFIX } from './aggregates/mail';
export { webhookFailureKey, WEBHOOK_FAILURE_SK_PREFIX, WEBHOOK_DELIVERY_SHARDS, webhookDeliveryPartitions, webhookDeliveryPartition, webhookDeliveryKey } from './aggregates/mail';
export { inboundMailKey } from './aggregates/mail';
export { idempotencyKey } from './aggregates/mail';
export {
  templateKey, TEMPLATE_SK_PREFIX, templateEntryKey, templateListIndex, templateListPartition, templatesIndexedKey, templateCounterKey, templateNumberKey,
  templateUsageKey, templateUsesKey, templateUsagePrefix,
} from './aggregates/template';
export {
  scheduledSendKey, SCHEDULED_DUE_SHARDS, scheduledDuePartitions, scheduledDueIndex, parseScheduledDueSortKey, SCHEDULED_LIST_SHARDS, SCHEDULED_PENDING_SHARDS,
  scheduledListSortKey, scheduledListIndex, scheduledPendingIndex, scheduledListPartitions,
} from './aggregates/scheduling';
export { batchKey, BATCH_LIST_SHARDS, batchListIndex, batchListPartitions, scheduledBatchDueId, scheduledBatchDueIndex, batchOfDueId } from './aggregates/scheduling';
export { leadPartition, LEAD_SK_PREFIX, leadKey, leadIdKey, leadIndexes, leadListPartition, emailOfLeadSortKey, LEAD_COUNT_SK_PREFIX, leadCounterKey } from './aggregates/audience';
export {
  segmentKey, SEGMENT_SK_PREFIX, segmentTotalKey, SEGMENT_COUNT_SK_PREFIX, segmentCounterKey, segmentOfCounterSortKey, membershipKey, membershipPartition,
  leadOfMembershipPartition, segmentOfMembershipSortKey, membershipIndex, segmentMembersPartition, dynamicMembersPartition, dynamicMemberKey,
} from './aggregates/audience';
export { customEventPartition, emailOfCustomEventPartition, customEventKey, customEventIndexes, customEventListPartition } from './aggregates/audience';
export { leadImportKey, leadImportErrorPartition, leadImportErrorKey, leadImportObjectKey } from './aggregates/audience';
export {
  campaignKey, campaignIdsObjectKey, campaignListIndex, campaignListPartition, campaignCursorKey, campaignHeldJobKey, CAMPAIGN_HELD_SK_PREFIX, CAMPAIGN_COUNTER_SHARDS,
  campaignCounterKey, campaignCounterKeys, campaignRateKey, campaignExportKey, campaignRunningExportKey, campaignExportObjectKey,
} from './aggregates/campaign';
export { mxCacheKey, providerRateKey, providerPaceKey, PROVIDER_DEFERRAL_SHARDS, providerDeferralKey, providerDeferralKeys, parkedRecipientsObjectKey } from './aggregates/mailbox-provider';
export {
  automationKey, automationVersionKey, automationListIndex, automationListPartition, automationTriggerKey, automationTriggerPartition, automationDateTriggerIndex, automationDateTriggerPartition, automationCounterKey, automationCounterKeys, AUTOMATION_COUNTER_SHARDS, automationRunCounter, automationStepCounter,
} from './aggregates/automation';
export {
  automationRunKey, automationStepKey, automationStepSortKey, AUTOMATION_STEP_SK_PREFIX, automationEntryKey, automationRunListIndex, automationRunListPartitions, AUTOMATION_RUN_LIST_SHARDS,
  automationLeadRunIndex, automationLeadRunPartition, automationDueIndex, automationDuePartitions, parseAutomationDueSortKey, AUTOMATION_DUE_SHARDS, automationSweepCursorKey, automationHeldRunKey, automationHeldPartitions, AUTOMATION_HELD_SHARDS, AUTOMATION_RUN_RETENTION_DAYS,
} from './aggregates/automation';
export { dmarcPartition, DMARC_ROW_SK_PREFIX, dmarcRowKey, dmarcRowRange, dmarcReportKey, dmarcIntakeKey, DMARC_RETENTION_DAYS } from './aggregates/dmarc';
