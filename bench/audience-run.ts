/**
 * `npm run bench:audience`: the audience benchmark alone (a lead import of `BENCH_AUDIENCE_LEADS`
 * rows, default 1,000,000, and a dynamic segment over them), written to bench/results.json's
 * `audience` with the other entries kept. The whole `npm run bench` runs it too.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { measureAudience } from './audience';

process.env.POWERTOOLS_LOG_LEVEL ??= 'SILENT';
process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= 'true';

const LEADS = Number(process.env.BENCH_AUDIENCE_LEADS ?? 1_000_000);
const RESULTS = path.join(__dirname, 'results.json');

async function main(): Promise<void> {
  const { startLocalCloud } = await import('../local/cloud');
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'mailroom-bench-'));
  const cloud = await startLocalCloud({ dataDir, persist: false, ports: { api: 0, dynamodb: 0, sqs: 0, ses: 0, s3: 0 }, workers: false });
  try {
    const started = Date.now();
    const audience = await measureAudience(cloud, { leads: LEADS });
    const previous = fs.existsSync(RESULTS) ? (JSON.parse(fs.readFileSync(RESULTS, 'utf8')) as Record<string, unknown>) : {};
    fs.writeFileSync(RESULTS, `${JSON.stringify({ ...previous, audience }, null, 2)}\n`);
    console.log(JSON.stringify(audience, null, 2));
    console.log(`audience benchmark: ${Math.round((Date.now() - started) / 1000)} s in all`);
  } finally {
    await cloud.stop();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
