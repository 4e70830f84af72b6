/**
 * `npm run bench`: what one mail costs in the pieces AWS bills per request, measured against the
 * local cloud (see bench/measure.ts), printed and written to bench/results.json under the run's
 * scale. Every benchmark runs at the scale `BENCH_SCALE` names (bench/scale.ts): `small` by default,
 * about three and a half minutes on an idle machine; `BENCH_SCALE=full npm run bench` for the figures at size,
 * about four and a half hours. `BENCH_AUDIENCE_LEADS=0` skips the lead import and keeps its last figures. Each part's wall
 * time is printed and recorded (`wall_time`, with the machine's load), and the parts share one
 * DynamoDB Local (bench/bench-cloud.ts), a fresh table each.
 */
import path from 'node:path';
import { DEFAULT_MEMORY_MB } from '../lib/project-function';
import { measureAudience, type AudienceResult } from './audience';
import { RESULTS_FILE, readFigure, withBenchCloud, withSharedDynamoDb, writeResults } from './bench-cloud';
import { measureSingleSends } from './measure';
import { PRICES_DATE } from './prices';
import { scaleLabel, scalePlan } from './scale';
import { machineLoad, partSeconds, timed } from './wall-time';

process.env.POWERTOOLS_LOG_LEVEL ??= 'SILENT';
process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= 'true';

const plan = scalePlan();
const label = scaleLabel();

/** Single sends and the audience, in one cloud; the other benchmarks fill in their own figures. */
async function singleAndAudience(): Promise<void> {
  await withBenchCloud(async (cloud) => {
    const memory = { send: DEFAULT_MEMORY_MB, 'send-worker': DEFAULT_MEMORY_MB, 'ses-events': DEFAULT_MEMORY_MB };
    const single = await timed('single sends', () => measureSingleSends(cloud, { mails: plan.single_mails, memory }));
    const audience = plan.audience_leads > 0 ? await timed('audience', () => measureAudience(cloud, { leads: plan.audience_leads })) : (readFigure('audience') as AudienceResult | undefined);
    writeResults('single', single);
    if (audience && plan.audience_leads > 0) writeResults('audience', audience);

    const rows: [string, string][] = [
      ['mails (single API sends)', `${single.mails} (${single.html_kb} KB HTML)`],
      ['write units per mail (API / worker / events)', `${single.write_units_per_mail} (${single.write_units_by_step.api} / ${single.write_units_by_step.worker} / ${single.write_units_by_step.events})`],
      ['read units per mail (API / worker / events)', `${single.read_units_per_mail} (${single.read_units_by_step.api} / ${single.read_units_by_step.worker} / ${single.read_units_by_step.events})`],
      ['DynamoDB requests per mail', String(single.dynamodb_requests_per_mail)],
      ['SQS requests per mail', String(single.sqs_requests_per_mail)],
      ['SES event publishes per mail', String(single.event_publishes_per_mail)],
      ['Lambda invocations per mail', String(single.lambda_invocations_per_mail)],
      ['Lambda GB-seconds per mail', `${single.lambda_gb_seconds_per_mail} (ms per mail: send ${single.lambda_ms_per_mail.send}, worker ${single.lambda_ms_per_mail['send-worker']}, events ${single.lambda_ms_per_mail['ses-events']})`],
      ['CPU ms per mail (upper bound)', `send ${single.cpu_ms_per_mail.send}, worker ${single.cpu_ms_per_mail['send-worker']}, events ${single.cpu_ms_per_mail['ses-events']}`],
      ['$ per 1,000 mails: DynamoDB / SQS / events / Lambda', Object.values(single.dollars_by_part_per_1000_mails).map((d) => `$${d}`).join(' / ')],
      ['overhead through delivered', `$${single.dollars_per_1000_mails} per 1,000 mails = ${single.overhead_pct}% of SES`],
      ['API Gateway (listed apart)', `${single.api_gateway_pct}% of SES`],
      ['API latency p50 / p95 (local)', `${single.api_latency_ms.p50} ms / ${single.api_latency_ms.p95} ms`],
      ['prices', `us-east-1 list prices of ${PRICES_DATE}`],
    ];
    if (audience) rows.push(['lead import (local)', `${audience.import.rows} rows in ${audience.import.seconds} s, ${audience.import.write_units_per_lead} write units per lead`], ['dynamic segment (local)', `${audience.dynamic_segment.leads} leads in ${audience.dynamic_segment.seconds} s`]);
    for (const [name, estimates] of Object.entries(single.memory_model)) {
      rows.push([`model: ${name} at 128/256/512/1024/1769 MB`, estimates.map((e) => `${e.ms_per_mail} ms $${e.dollars_per_million_mails}/M`).join(', ')]);
    }
    const width = Math.max(...rows.map(([k]) => k.length));
    console.log(`\nMailroom benchmark: cost per mail (scale ${label})\n`);
    for (const [k, v] of rows) console.log(`  ${k.padEnd(width)}  ${v}`);
    console.log(`\n  written to ${path.relative(process.cwd(), RESULTS_FILE)}\n`);
  });
}

/** Every part in turn, each timed; then the wall times with the machine's load, into bench/results.json. */
async function main(): Promise<void> {
  console.log(`Mailroom benchmark at scale ${label}: ${JSON.stringify(plan)}`);
  const from = performance.now();
  const loadBefore = machineLoad();
  await withSharedDynamoDb(async () => {
    await timed('local cloud: single sends and audience', singleAndAudience);
    // Batch sends: one batch end to end; sets `batch` (bench/batch.ts).
    await timed('batch', async () => (await import('./batch')).runBatchBench());
    // Campaigns: one campaign to imported leads end to end; sets `campaign` (bench/campaign.ts).
    await timed('campaign', async () => (await import('./campaign')).runCampaignBench());
    // Automations: a send, wait, send journey started by an import into a segment; sets `automation` (bench/automation.ts).
    await timed('automation', async () => (await import('./automation')).runAutomationBench());
    // Per function: bundle size, cold init and handler CPU (bench/functions.ts).
    await timed('functions', async () => (await import('./functions')).runFunctionBench());
    // The walk of a batch recipient: project files and folders its functions load (bench/mail-path.ts, one build).
    await timed('mail path', async () => writeResults('mail_path', await (await import('./mail-path')).runMailPathBench()));
    // The local cloud's end-to-end throughput, API to outbox (bench/throughput.ts).
    await timed('throughput', async () => (await import('./throughput')).runThroughputBench());
    // The console's first load in Chromium: bytes and time to interactive; sets `console` (bench/console.ts).
    await timed('console', async () => (await import('./console')).runConsoleBench());
    // Load (API sends at 50 at a time with a batch and a campaign) and the fault soak; sets `faults` (bench/faults.ts).
    await timed('load and fault soak', async () => (await import('./faults')).runFaultsBench());
  });
  const seconds = Math.round((performance.now() - from) / 100) / 10;
  writeResults('wall_time', {
    seconds,
    seconds_by_part: partSeconds(),
    load_average_at_start: loadBefore.load_average,
    load_average_at_end: machineLoad().load_average,
    cores: loadBefore.cores,
    date: new Date().toISOString().slice(0, 10),
  });
  console.log(`\nMailroom benchmark at scale ${label}: ${seconds} s in all (load average ${loadBefore.load_average.join(', ')} at the start, ${machineLoad().load_average.join(', ')} at the end, ${loadBefore.cores} cores)\n`);
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
