/**
 * The console's first load, in Debian's Chromium against a local cloud: what a signed-in operator's
 * browser downloads to show the overview, and how long until the page is interactive (the overview's
 * heading rendered by the script, which then answers input). Each load is cold (a new browser
 * context: no cache), then one warm load shows what the year-long cache of the hashed files saves.
 * Sets `console` in bench/results.json. Alone: `npx tsx bench/console.ts`.
 */
import fs from 'node:fs';
import { withBenchCloud, writeResults } from './bench-cloud';

const CHROMIUM = '/usr/bin/chromium';
const LOADS = 7;

/** One load's figures. */
interface Load {
  readonly interactive_ms: number;
  readonly requests: number;
  readonly bytes: number;
}

/** The median of some numbers. */
function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)];
}

/** Runs the benchmark and records its figures (skipped, with a note, where Chromium is missing). */
export async function runConsoleBench(): Promise<void> {
  if (!fs.existsSync(CHROMIUM)) {
    console.log(`console: skipped, ${CHROMIUM} is missing (apt-get install -y chromium)`);
    return;
  }
  const { chromium } = await import('playwright-core');
  await withBenchCloud(
    async (cloud) => {
      const browser = await chromium.launch({
        executablePath: CHROMIUM,
        args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
      });
      try {
        const load = async (context: Awaited<ReturnType<typeof browser.newContext>>): Promise<Load> => {
          const page = await context.newPage();
          let requests = 0;
          let bytes = 0;
          // Bytes on the wire (compressed), as the CDP reports them per response.
          const cdp = await context.newCDPSession(page);
          await cdp.send('Network.enable');
          cdp.on('Network.loadingFinished', (event: { encodedDataLength: number }) => {
            requests += 1;
            bytes += event.encodedDataLength;
          });
          const started = performance.now();
          await page.goto(`${cloud.baseUrl}/console#/overview`);
          await page.getByRole('heading', { level: 1 }).first().waitFor();
          const interactive = performance.now() - started;
          await page.waitForLoadState('networkidle');
          await page.close();
          return { interactive_ms: Math.round(interactive), requests, bytes };
        };
        const signedIn = async () => {
          const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
          const res = await context.request.post(`${cloud.baseUrl}/console/session`, { data: { api_key: cloud.seed.live_key }, headers: { 'X-Mailroom-Console': '1' } });
          if (res.status() !== 201) throw new Error(`sign-in answered ${res.status()}`);
          return context;
        };
        const cold: Load[] = [];
        for (let i = 0; i < LOADS; i++) {
          const context = await signedIn();
          cold.push(await load(context));
          await context.close();
        }
        const context = await signedIn();
        await load(context);
        const warm = await load(context);
        await context.close();
        const manifest = JSON.parse(fs.readFileSync('console/dist/manifest.json', 'utf8')) as { bytes: { js: number; css: number } };
        const figures = {
          loads: LOADS,
          interactive_ms_median: median(cold.map((l) => l.interactive_ms)),
          interactive_ms_max: Math.max(...cold.map((l) => l.interactive_ms)),
          first_load_kb: Math.round(median(cold.map((l) => l.bytes)) / 102.4) / 10,
          first_load_requests: median(cold.map((l) => l.requests)),
          warm_load_kb: Math.round(warm.bytes / 102.4) / 10,
          warm_interactive_ms: warm.interactive_ms,
          app_js_kb_uncompressed: Math.round(manifest.bytes.js / 102.4) / 10,
          app_css_kb_uncompressed: Math.round(manifest.bytes.css / 102.4) / 10,
        };
        writeResults('console', figures);
        console.log(`\nConsole first load (local cloud, ${LOADS} cold loads)\n`);
        for (const [k, v] of Object.entries(figures)) console.log(`  ${k.padEnd(26)}  ${v}`);
      } finally {
        await browser.close();
      }
    },
    { workers: false, name: 'console' },
  );
}

if (require.main === module) {
  runConsoleBench().catch((error) => {
    console.error(error);
    process.exit(1);
  });
}
