import { WORKER_TIMEOUT_SECONDS } from '../../shared/platform/core/queues';
import { CLOUD_TIMEOUT_MS } from '../integration/support/test-cloud';
import { startFaultCloud, type FaultCloud } from './support/fault-cloud';
import { startFaultyPollers } from './support/pump';
import { reportFigures } from './support/report';
import { runWorkload } from './support/workload';

/**
 * Issue 19, part 1: the single-send pipeline, a batch (fan-out and batch-send worker), the SES
 * events worker and the webhooks, all at once, under the faults AWS produces: SES throttling and
 * 5xx on 30% of calls, DynamoDB throttling on 3% of the workers' writes (what the SDK's own retries
 * let through), time running 5 times faster, duplicate deliveries (at
 * once and later), shuffled batches, reordered and repeated SES events, and a webhook receiver
 * that fails 4 times in 5. FAULTS_MAILS and FAULTS_BATCH make it larger (the soak).
 */

/** Retry backoffs, claim leases and visibility timeouts all run 5 times faster, in proportion. */
const TIME_FACTOR = 5;

let fc: FaultCloud;
let pollers: { stop(): Promise<void> } | undefined;

beforeAll(async () => {
  fc = await startFaultCloud({ queue: { duplicateRate: 0.1, reorderRate: 0.2, timeFactor: TIME_FACTOR }, failFirst: 4 });
  pollers = await startFaultyPollers(
    fc.sqs,
    fc.cloud.queueUrls,
    { plan: () => ({ sesFailureRate: 0.3, dbThrottleRate: 0.03, timeoutMs: (WORKER_TIMEOUT_SECONDS * 1000) / TIME_FACTOR }), concurrentDuplicateRate: 0.15, lateDuplicateRate: 0.1, timeFactor: TIME_FACTOR },
    fc.log,
    fc.random,
  );
}, CLOUD_TIMEOUT_MS);
afterAll(async () => {
  await pollers?.stop();
  await fc?.stop();
});

describe('the pipeline under injected faults', () => {
  test('every accepted mail is sent exactly once, ends in the right status, and every webhook event is delivered', async () => {
    const mails = Number(process.env.FAULTS_MAILS ?? 60);
    const batchRecipients = Number(process.env.FAULTS_BATCH ?? 40);
    const report = await runWorkload(fc, { mails, batchRecipients, concurrency: 10, settleTimeoutMs: 540_000 });
    reportFigures('pipeline', { seed: fc.seed, faults: fc.log.counts, ...report, lost: report.lost.length, duplicated: report.duplicated.length });

    expect(report.refused).toBe(0);
    expect(report.accepted).toBe(mails + batchRecipients);
    expect(report.lost).toEqual([]);
    expect(report.duplicated).toEqual([]);
    expect(report.wrongStatus).toEqual([]);
    expect(report.missingWebhooks).toEqual([]);
    // A batch-send job can exhaust its receives under throttling even with every recipient done
    // (each redelivery re-claims every recipient: docs/decisions.md, follow-up); the checks above
    // prove its mails went. Every other queue's DLQ stays empty.
    const { 'batch-send': _batchSend, ...otherDeadLetters } = report.deadLetters;
    expect(otherDeadLetters).toEqual({});
    // The faults did happen: a run where none was injected would prove nothing.
    for (const kind of ['ses_throttle', 'ses_5xx', 'dynamodb_throttle', 'sqs_duplicate', 'sqs_concurrent_duplicate', 'sqs_late_duplicate']) {
      expect(fc.log.counts[kind] ?? 0).toBeGreaterThan(0);
    }
    expect(fc.receiver.hooks.filter((h) => h.status !== 200).length).toBeGreaterThan(0);
  }, 600_000);
});
