/**
 * Load and soak, in the local cloud: `BENCH_LOAD_MAILS` single API sends (full scale 10,000, small
 * 300) at 50 at a time while a batch of `BENCH_LOAD_BATCH` recipients (2,000 / 100) and a campaign
 * to `BENCH_LOAD_CAMPAIGN` new leads (2,000 / 100) go out, every worker running; then the fault soak,
 * the suite's pipeline check (test/faults/pipeline.test.ts) at `BENCH_SOAK_MAILS` mails (1,000 /
 * 100). Each checks that nothing was lost or sent twice and reports mails a second, API to outbox.
 * Sets `faults` in bench/results.json. `BENCH_LOAD_MAILS=0` skips the load, `BENCH_SOAK_MAILS=0` the soak.
 */
import { WORKER_TIMEOUT_SECONDS } from '../shared/platform/core/queues';
import { readFigure, writeResults } from './bench-cloud';
import { scalePlan } from './scale';
import { timed } from './wall-time';
import { startFaultCloud } from '../test/faults/support/fault-cloud';
import { startFaultyPollers } from '../test/faults/support/pump';
import { runWorkload, type WorkloadReport } from '../test/faults/support/workload';

/** The figures of one run, as bench/results.json keeps them. */
function figures(report: WorkloadReport, faults: Record<string, number>) {
  return {
    accepted: report.accepted,
    campaign_mails: report.campaignMails,
    campaign_status: report.campaignStatus ?? null,
    mails_in_outbox: report.mailsInOutbox,
    lost: report.lost.length,
    duplicated: report.duplicated.length,
    failed_for_good: report.failedForGood,
    wrong_status: report.wrongStatus.length,
    webhook_events: `${report.webhookEventsDelivered} of ${report.webhookEventsExpected}`,
    dead_letters: report.deadLetters,
    seconds: report.seconds,
    mails_per_second: report.mailsPerSecond,
    faults_injected: Object.fromEntries(Object.entries(faults).filter(([k]) => k !== 'dynamodb_write_seen')),
  };
}

/** One workload in a fresh local cloud, with the given faults (rates 0: a plain load run). */
async function run(options: { mails: number; batch: number; campaign: number; faults: boolean }) {
  const timeFactor = options.faults ? 5 : 1;
  const fc = await startFaultCloud({ queue: options.faults ? { duplicateRate: 0.1, reorderRate: 0.2, timeFactor } : { duplicateRate: 0, reorderRate: 0, timeFactor }, failFirst: options.faults ? 4 : 0 });
  const plan = options.faults ? { sesFailureRate: 0.3, dbThrottleRate: 0.03, timeoutMs: (WORKER_TIMEOUT_SECONDS * 1000) / timeFactor } : {};
  const pollers = await startFaultyPollers(
    fc.sqs,
    fc.cloud.queueUrls,
    { plan: () => plan, concurrentDuplicateRate: options.faults ? 0.15 : 0, lateDuplicateRate: options.faults ? 0.1 : 0, timeFactor },
    fc.log,
    fc.random,
  );
  try {
    const report = await runWorkload(fc, { mails: options.mails, batchRecipients: options.batch, campaignLeads: options.campaign, concurrency: 50, settleTimeoutMs: 60 * 60_000 });
    return { seed: fc.seed, ...figures(report, fc.log.counts) };
  } finally {
    await pollers.stop();
    await fc.stop();
  }
}

/** Runs the load and the soak and writes `faults` into bench/results.json. */
export async function runFaultsBench(): Promise<void> {
  const plan = scalePlan();
  const loadMails = plan.load_mails;
  const soakMails = plan.soak_mails;
  const load = loadMails > 0 ? await timed('load', () => run({ mails: loadMails, batch: plan.load_batch, campaign: plan.load_campaign, faults: false })) : undefined;
  const soak = soakMails > 0 ? await timed('fault soak', () => run({ mails: soakMails, batch: Math.round(soakMails / 2), campaign: 0, faults: true })) : undefined;
  const kept = readFigure('faults') ?? {};
  writeResults('faults', { load: load ?? kept.load, soak: soak ?? kept.soak });
  for (const [name, result] of Object.entries({ load, soak })) {
    if (!result) continue;
    console.log(`\nFaults bench, ${name}: ${result.accepted} mails accepted, ${result.lost} lost, ${result.duplicated} duplicated, webhooks ${result.webhook_events}, ${result.mails_per_second} mails a second API to outbox (${result.seconds} s)`);
  }
  if ([load, soak].some((r) => r && (r.lost > 0 || r.duplicated > 0 || r.wrong_status > 0 || (r.campaign_status !== null && r.campaign_status !== 'completed')))) throw new Error('The faults bench lost, duplicated or misreported mails; see bench/results.json');
}
