/**
 * `npm run bench:audience`: the audience benchmark alone (a lead import of the scale's rows,
 * bench/scale.ts: 5,000 small, 1,000,000 with `BENCH_SCALE=full`, and a dynamic segment over them),
 * written to bench/results.json's `audience` with the other entries kept. `npm run bench` runs it too.
 */
import { measureAudience } from './audience';
import { withBenchCloud, writeResults } from './bench-cloud';
import { scalePlan } from './scale';

process.env.POWERTOOLS_LOG_LEVEL ??= 'SILENT';
process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= 'true';

const LEADS = scalePlan().audience_leads;

async function main(): Promise<void> {
  const started = Date.now();
  const audience = await withBenchCloud((cloud) => measureAudience(cloud, { leads: LEADS }));
  writeResults('audience', audience);
  console.log(JSON.stringify(audience, null, 2));
  console.log(`audience benchmark: ${Math.round((Date.now() - started) / 1000)} s in all`);
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
