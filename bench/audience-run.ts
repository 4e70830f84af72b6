/**
 * `npm run bench:audience`: the audience benchmark alone (a lead import of `BENCH_AUDIENCE_LEADS`
 * rows, default 1,000,000, and a dynamic segment over them), written to bench/results.json's
 * `audience` with the other entries kept. The whole `npm run bench` runs it too.
 */
import { measureAudience } from './audience';
import { withBenchCloud, writeResults } from './bench-cloud';

process.env.POWERTOOLS_LOG_LEVEL ??= 'SILENT';
process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= 'true';

const LEADS = Number(process.env.BENCH_AUDIENCE_LEADS ?? 1_000_000);

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
