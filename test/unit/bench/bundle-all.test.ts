import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { bundleAll } from '../../../bench/bundle-all';
import { bundleFunction, type BundleReport } from '../../../lib/bundling';
import { endpointGroups, schedules, workers } from '../../../shared/platform/core/routes';

const ROOT = path.resolve(__dirname, '../../..');
const FUNCTIONS = [
  { name: 'scheduled-sweep', entry: schedules['scheduled-sweep'].entry },
  { name: 'send', entry: endpointGroups.send.entry },
  { name: 'send-worker', entry: workers['send-worker'].entry },
];

describe('the functions benchmark bundles every function in one build (bench/bundle-all.ts)', () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'mailroom-bundle-all-'));
  let together: Record<string, BundleReport>;
  const alone: Record<string, BundleReport> = {};

  beforeAll(async () => {
    together = await bundleAll(ROOT, FUNCTIONS, path.join(dir, 'together'));
    for (const { name, entry } of FUNCTIONS) alone[name] = await bundleFunction(ROOT, entry, path.join(dir, 'alone', name));
  }, 120_000);
  afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

  it.each(FUNCTIONS.map((f) => f.name))('%s: writes byte for byte the bundle and source map the stack\'s settings write for it alone', (name) => {
    for (const file of ['index.js', 'index.js.map']) {
      const built = fs.readFileSync(path.join(dir, 'together', name, file));
      expect(built.equals(fs.readFileSync(path.join(dir, 'alone', name, file)))).toBe(true);
    }
  });

  it.each(FUNCTIONS.map((f) => f.name))('%s: reports the same size, parts, externals and duplicates', (name) => {
    const { file, ...report } = together[name];
    const { file: aloneFile, ...expected } = alone[name];
    expect(file).toBe(path.join(dir, 'together', name, 'index.js'));
    expect(aloneFile).toBe(path.join(dir, 'alone', name, 'index.js'));
    expect(report).toEqual(expected);
    expect(report.bytes).toBe(fs.statSync(file).size);
  });
});
