import { CLOUD_TIMEOUT_MS } from '../integration/support/test-cloud';
import { startFaultCloud, type FaultCloud } from './support/fault-cloud';
import { startFaultyPollers } from './support/pump';
import { reportFigures } from './support/report';
import { runWorkload } from './support/workload';

/**
 * Issue 19, part 5, small: single API sends at 50 at a time while a batch and a campaign (100
 * leads) go out, no faults, every worker running: nothing lost, nothing twice, the campaign
 * completed, and the throughput (API to outbox) reported. `npm run bench` runs the full size
 * (bench/faults.ts: 10,000 sends, a 2,000-lead campaign). FAULTS_LOAD_MAILS resizes it.
 */

let fc: FaultCloud;
let pollers: { stop(): Promise<void> } | undefined;

beforeAll(async () => {
  fc = await startFaultCloud({ queue: { duplicateRate: 0, reorderRate: 0, timeFactor: 1 }, failFirst: 0 });
  pollers = await startFaultyPollers(fc.sqs, fc.cloud.queueUrls, { plan: () => ({}), concurrentDuplicateRate: 0, lateDuplicateRate: 0, timeFactor: 1 }, fc.log, fc.random);
}, CLOUD_TIMEOUT_MS);
afterAll(async () => {
  await pollers?.stop();
  await fc?.stop();
});

describe('load: API sends at concurrency 50 with a batch and a campaign at the same time', () => {
  test('every mail reaches the outbox once, with its final status and webhook events', async () => {
    const mails = Number(process.env.FAULTS_LOAD_MAILS ?? 300);
    const report = await runWorkload(fc, { mails, batchRecipients: 200, campaignLeads: 100, concurrency: 50, settleTimeoutMs: 240_000 });
    reportFigures('load', { ...report, lost: report.lost.length, duplicated: report.duplicated.length, missingWebhooks: report.missingWebhooks.length });
    expect(report.accepted).toBe(mails + 200 + 100);
    expect({ mails: report.campaignMails, status: report.campaignStatus }).toEqual({ mails: 100, status: 'completed' });
    expect(report.lost).toEqual([]);
    expect(report.duplicated).toEqual([]);
    expect(report.wrongStatus).toEqual([]);
    expect(report.missingWebhooks).toEqual([]);
    expect(report.mailsPerSecond).toBeGreaterThan(0);
  });
});
