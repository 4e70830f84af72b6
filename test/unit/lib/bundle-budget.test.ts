import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { bundleFunction, type BundleReport } from '../../../lib/bundling';
import { schedules, endpointGroups, workers } from '../../../shared/platform/core/routes';

/**
 * Bundle budgets (docs/cost.md "Functions"): three representative functions, bundled with the
 * stack's own options, stay within their size. Every bundle ships the AWS SDK (lib/bundling.ts), a
 * share about the same in each (1,111 KB measured: every function's services reach every client), so
 * each function has two budgets: its own code (the bundle built with the SDK left out), where a
 * regression shows (the full `zod` import alone added 420 KB; the goal is 500 KB), and the bundle as
 * shipped, its own budget plus the SDK's.
 */
const ROOT = path.resolve(__dirname, '../../..');
/** The SDK's share of a bundle (measured 1,110-1,112 KB) with room for a few releases' growth. */
const SDK_KB = 1150;
const BUDGET_KB = {
  'scheduled-sweep': { entry: schedules['scheduled-sweep'].entry, kb: 150 },
  send: { entry: endpointGroups.send.entry, kb: 450 },
  'send-worker': { entry: workers['send-worker'].entry, kb: 450 },
};
const SDK_EXTERNAL = ['@aws-sdk/*'];

describe('function bundles: size budgets', () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'mailroom-budget-'));
  const bundles: Record<string, BundleReport> = {};
  const ownCode: Record<string, BundleReport> = {};

  beforeAll(async () => {
    for (const [name, { entry }] of Object.entries(BUDGET_KB)) {
      bundles[name] = await bundleFunction(ROOT, entry, path.join(dir, name));
      ownCode[name] = await bundleFunction(ROOT, entry, path.join(dir, `${name}-own`), { external: SDK_EXTERNAL });
    }
  }, 60_000);
  afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

  it.each(Object.entries(BUDGET_KB))('%s: its own code stays within its budget', (name, { kb }) => {
    expect(Math.round(ownCode[name].bytes / 1024)).toBeLessThanOrEqual(kb);
  });

  it.each(Object.entries(BUDGET_KB))('%s: the bundle as shipped stays within its budget plus the SDK\'s', (name, { kb }) => {
    expect(Math.round(bundles[name].bytes / 1024)).toBeLessThanOrEqual(kb + SDK_KB);
  });

  it.each(Object.keys(BUDGET_KB))('%s ships the AWS SDK it was tested with: it requires no @aws-sdk package from the runtime', (name) => {
    expect(bundles[name].externals.filter((e) => e.startsWith('@aws-sdk/') || e.startsWith('@smithy/'))).toEqual([]);
    expect(bundles[name].bytesBySource['@aws-sdk/client-dynamodb']).toBeGreaterThan(0);
    expect(bundles[name].bytesBySource['@aws-sdk/client-cloudfront']).toBeGreaterThan(0);
  });

  it.each(Object.keys(BUDGET_KB))('%s bundles no package twice', (name) => {
    expect(bundles[name].duplicates).toEqual({});
  });

  it('scheduled-sweep loads only the DynamoDB and SQS clients at init (SES, S3 and the rest on first use)', () => {
    // Watched in the build with the SDK left out, where each client is a module of its own; the
    // shipped bundle keeps the same dynamic imports, each client's code evaluated on first use.
    const script = `require(process.env.BUNDLE); console.log(JSON.stringify(Object.keys(require.cache).map((f) => (f.match(/@aws-sdk\\/client-[a-z0-9-]+/) ?? [])[0]).filter(Boolean)))`;
    const out = execFileSync(process.execPath, ['-e', script], {
      env: { PATH: process.env.PATH, NODE_PATH: path.join(ROOT, 'node_modules'), BUNDLE: ownCode['scheduled-sweep'].file, AWS_REGION: 'us-east-1' },
      encoding: 'utf8',
    });
    expect([...new Set(JSON.parse(out) as string[])].sort()).toEqual(['@aws-sdk/client-dynamodb', '@aws-sdk/client-sqs']);
  });

  it('the shipped scheduled-sweep loads with no SDK installed at all (nothing is left to the runtime)', () => {
    const out = execFileSync(process.execPath, ['-e', 'console.log(typeof require(process.env.BUNDLE).handler)'], {
      env: { PATH: process.env.PATH, BUNDLE: bundles['scheduled-sweep'].file, AWS_REGION: 'us-east-1' },
      cwd: os.tmpdir(),
      encoding: 'utf8',
    });
    expect(out.trim()).toBe('function');
  });
});

describe('the zod import', () => {
  /** Every TypeScript file under a folder. */
  const sources = (dir: string): string[] =>
    fs.readdirSync(path.join(ROOT, dir), { withFileTypes: true }).flatMap((entry) => {
      const rel = path.join(dir, entry.name);
      if (entry.isDirectory()) return sources(rel);
      return entry.name.endsWith('.ts') ? [rel] : [];
    });

  it('product code takes zod only through shared/platform/core/zod.ts (zod/mini: the full import adds 420 KB to a bundle)', () => {
    const direct = [...sources('shared'), ...sources('functions')].filter(
      (file) => file !== path.join('shared', 'platform', 'core', 'zod.ts') && /from\s+'zod(\/[^']*)?'/.test(fs.readFileSync(path.join(ROOT, file), 'utf8')),
    );
    expect(direct).toEqual([]);
  });
});
