import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { bundleFunction, type BundleReport } from '../../../lib/bundling';
import { schedules, endpointGroups, workers } from '../../../shared/routes';

/**
 * Bundle budgets (issue 14, docs/cost.md "Functions"): three representative functions, bundled with
 * the stack's own options, stay within their size. The goal is 500 KB for every function; these
 * budgets sit closer to today's sizes so that a regression (the full `zod` import alone added
 * 420 KB) fails here first.
 */
const ROOT = path.resolve(__dirname, '../../..');
const BUDGET_KB = {
  'scheduled-sweep': { entry: schedules['scheduled-sweep'].entry, kb: 150 },
  send: { entry: endpointGroups.send.entry, kb: 450 },
  'send-worker': { entry: workers['send-worker'].entry, kb: 450 },
};

describe('function bundles: size budgets', () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'mailroom-budget-'));
  const bundles: Record<string, BundleReport> = {};

  beforeAll(async () => {
    for (const [name, { entry }] of Object.entries(BUDGET_KB)) bundles[name] = await bundleFunction(ROOT, entry, path.join(dir, name));
  }, 60_000);
  afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

  it.each(Object.entries(BUDGET_KB))('%s stays within its budget', (name, { kb }) => {
    expect(Math.round(bundles[name].bytes / 1024)).toBeLessThanOrEqual(kb);
  });

  it.each(Object.keys(BUDGET_KB))('%s leaves the AWS SDK to the runtime', (name) => {
    expect(Object.keys(bundles[name].bytesBySource).filter((source) => source.startsWith('@aws-sdk/'))).toEqual([]);
    expect(bundles[name].externals).toContain('@aws-sdk/client-dynamodb');
  });

  it.each(Object.keys(BUDGET_KB))('%s bundles no package twice', (name) => {
    expect(bundles[name].duplicates).toEqual({});
  });

  it('scheduled-sweep loads only the DynamoDB and SQS clients at init (SES, S3 and the rest on first use)', () => {
    const script = `require(process.env.BUNDLE); console.log(JSON.stringify(Object.keys(require.cache).map((f) => (f.match(/@aws-sdk\\/client-[a-z0-9-]+/) ?? [])[0]).filter(Boolean)))`;
    const out = execFileSync(process.execPath, ['-e', script], {
      env: { PATH: process.env.PATH, NODE_PATH: path.join(ROOT, 'node_modules'), BUNDLE: bundles['scheduled-sweep'].file, AWS_REGION: 'us-east-1' },
      encoding: 'utf8',
    });
    expect([...new Set(JSON.parse(out) as string[])].sort()).toEqual(['@aws-sdk/client-dynamodb', '@aws-sdk/client-sqs']);
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

  it('product code takes zod only through shared/zod.ts (zod/mini: the full import adds 420 KB to a bundle)', () => {
    const direct = [...sources('shared'), ...sources('functions')].filter(
      (file) => file !== path.join('shared', 'zod.ts') && /from\s+'zod(\/[^']*)?'/.test(fs.readFileSync(path.join(ROOT, file), 'utf8')),
    );
    expect(direct).toEqual([]);
  });
});
