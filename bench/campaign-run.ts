/**
 * `npm run bench:campaign`: the campaign benchmark alone (the scale's recipients, bench/scale.ts:
 * 1,000 small, 100,000 with `BENCH_SCALE=full`), written to bench/results.json's `campaign` with the
 * other entries kept.
 */
import { runCampaignBench } from './campaign';

process.env.POWERTOOLS_LOG_LEVEL ??= 'SILENT';
process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= 'true';

runCampaignBench().catch((error) => {
  console.error(error);
  process.exit(1);
});
