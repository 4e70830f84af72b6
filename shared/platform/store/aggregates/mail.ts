import { defineAggregate, defineLifecycle, days, hours, type AccessPattern, type ItemKey } from '../aggregate-definition';
import { allShards, shardOf } from './shards';

/** Key of a suppressed address inside its project's partition. */
export const suppressionKey = (projectId: string, email: string): ItemKey => ({ pk: `PROJECT#${projectId}`, sk: `SUPP#${email.toLowerCase()}` });

/** Prefix of a project's suppression entries. */
export const SUPPRESSION_SK_PREFIX = 'SUPP#';

/** A suppressed address of a project. */
export const suppression = /* @__PURE__ */ defineAggregate({
  name: 'suppression entry',
  keys: { suppressionKey, SUPPRESSION_SK_PREFIX },
});

/** Days the marker of a handled inbound mail is kept (the bucket expires the mails themselves after 30 days). */
const INBOUND_MARKER_DAYS = 30;

/** Key of the marker that an inbound mail (an S3 object of the inbound bucket) was handled: a redelivered S3 event finds it. */
export const inboundMailKey = (objectKey: string): ItemKey => ({ pk: `INBOUND#${objectKey}`, sk: 'INBOUND' });

/** The marker that an inbound mail (an S3 object of the inbound bucket) was handled. */
export const inboundMail = /* @__PURE__ */ defineAggregate({
  name: 'inbound mail marker',
  keys: { inboundMailKey },
  ttl: [{ attribute: 'ttl', items: 'markers', seconds: /* @__PURE__ */ days(INBOUND_MARKER_DAYS) }],
});

/**
 * Shards of a project's webhook delivery log: every attempt of every delivery writes one entry, and a
 * mail makes two or three deliveries (email.send, email.delivery, an open...), so at 3,000 mails a
 * second from one project the log takes about 9,000 writes: 32 shards take about 280 each. Retries
 * do not raise that: the webhooks worker's concurrency caps attempts a second (about 10,000 with
 * receivers answering in 50 ms), and a failing receiver is slower, not faster.
 */
export const WEBHOOK_DELIVERY_SHARDS = 32;
/** The log partition of a delivery: all its attempts are in one shard, chosen by its id. */
export const webhookDeliveryPartition = (projectId: string, deliveryId: string): string => `WHDLV#${projectId}#${shardOf(deliveryId, WEBHOOK_DELIVERY_SHARDS)}`;

/** Key of a webhook delivery that failed for good, in its project's partition; sorts by failure time. */
export const webhookFailureKey = (projectId: string, failedAt: string, deliveryId: string): ItemKey => ({ pk: `PROJECT#${projectId}`, sk: `WHFAIL#${failedAt}#${deliveryId}` });

/** Prefix of a project's failed webhook deliveries (Query backwards for newest first). */
export const WEBHOOK_FAILURE_SK_PREFIX = 'WHFAIL#';

/** Every log partition of a project (the list reads them all and merges newest first). */
export const webhookDeliveryPartitions = (projectId: string): string[] => allShards(WEBHOOK_DELIVERY_SHARDS).map((s) => `WHDLV#${projectId}#${s}`);

/**
 * Key of one delivery attempt in its project's log: sharded by the delivery id, sorted by attempt
 * time, so a partition read backwards is newest first. The project is part of the partition, so a
 * redelivery that names an entry can only ever read the caller's own.
 */
export const webhookDeliveryKey = (projectId: string, deliveryId: string, attemptedAt: string, attempt: number): ItemKey => ({
  pk: webhookDeliveryPartition(projectId, deliveryId),
  sk: `${attemptedAt}#${deliveryId}#${String(attempt).padStart(2, '0')}`,
});

/** A project's webhook deliveries: the log of every attempt and the deliveries that failed for good. */
export const webhookDelivery = /* @__PURE__ */ defineAggregate({
  name: 'webhook delivery',
  keys: { webhookFailureKey, WEBHOOK_FAILURE_SK_PREFIX, WEBHOOK_DELIVERY_SHARDS, webhookDeliveryPartitions, webhookDeliveryPartition, webhookDeliveryKey },
  // WEBHOOK_FAILURE_RETENTION_DAYS and WEBHOOK_DELIVERY_RETENTION_DAYS of shared/notifications/webhooks today.
  ttl: [
    { attribute: 'ttl', items: 'failed deliveries', seconds: /* @__PURE__ */ days(30) },
    { attribute: 'ttl', items: 'attempts', seconds: /* @__PURE__ */ days(3) },
  ],
});

/** Seconds an idempotency record stands (IDEMPOTENCY_RETENTION_SECONDS of idempotency-record.ts). */
const IDEMPOTENCY_RETENTION_SECONDS = /* @__PURE__ */ hours(24);

/** Key of an Idempotency-Key record of a project; the key is hashed, so any 1 to 256 characters fit. */
export const idempotencyKey = (projectId: string, keyHash: string): ItemKey => ({ pk: `IDEMP#${projectId}#${keyHash}`, sk: 'IDEMP' });

/** An Idempotency-Key record's one move: its holder completes it with the answer. */
export const idempotencyRecordLifecycle = /* @__PURE__ */ defineLifecycle({
  name: 'idempotency record',
  transitions: {
    complete: { from: ['in_progress'], to: 'completed', set: ['response', 'completed_at'], remove: ['lease_until'] },
  },
});

/**
 * A request's Idempotency-Key record: claimed `in_progress` by a conditional put, then `completed`
 * with its answer by the holder of the claim (its token), or deleted when the route fails.
 */
export const idempotencyRecord = /* @__PURE__ */ defineAggregate({
  name: 'idempotency record',
  keys: { idempotencyKey },
  ttl: [{ attribute: 'ttl', items: 'records', seconds: IDEMPOTENCY_RETENTION_SECONDS }],
  lifecycle: idempotencyRecordLifecycle,
});

/** The access-pattern rows of this file's aggregates (docs/access-patterns.md): data for the document, kept out of the definitions so function bundles leave them out. */
export const mailAccessPatterns: Record<string, readonly AccessPattern[]> = {
  suppression: [{ pattern: 'Suppression entry of a project', pk: 'PROJECT#<projectId>', sk: 'SUPP#<email>', operation: 'BatchGet per send', wcu: '0 (1 to add)' }],
  inboundMail: [{ pattern: 'Inbound mail handled (dedupe)', pk: 'INBOUND#<s3 key>', sk: 'INBOUND', operation: 'conditional PutItem (TTL 30 d)', wcu: '1 per reply published or bounced' }],
  webhookDelivery: [
    { pattern: 'Failed webhook delivery of a project', pk: 'PROJECT#<projectId>', sk: 'WHFAIL#<failed>#<id>', operation: 'Put (TTL 30 d), Query desc', wcu: '1 per delivery failed for good' },
    { pattern: 'Webhook delivery attempt (log), with its gzipped payload for a redelivery', pk: 'WHDLV#<p>#<shard of delivery id, 32>', sk: '<attempted>#<id>#<nn>', operation: 'Put (TTL 3 d, item cut to 1 KB), Query desc on all 32 shards merged, GetItem by entry id', wcu: '1 per attempt' },
  ],
  idempotencyRecord: [{ pattern: 'Idempotency record (24 h)', pk: 'IDEMP#<p>#<sha256 key>', sk: 'IDEMP', operation: 'conditional Put, Update, Delete (TTL 24 h)', wcu: '2 per request that carries the header' }],
};
