/**
 * `npm run bench:automation`: the automation benchmark alone (the scale's leads, bench/scale.ts:
 * 200 small, 100,000 with `BENCH_SCALE=full`, or `BENCH_AUTOMATION_LEADS`), written to
 * bench/results.json's `automation` with the other entries kept.
 */
import { runAutomationBench } from './automation';

process.env.POWERTOOLS_LOG_LEVEL ??= 'SILENT';
process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= 'true';

runAutomationBench().catch((error) => {
  console.error(error);
  process.exit(1);
});
