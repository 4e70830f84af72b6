import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { readFigure, readResults, writeResults } from '../../../bench/bench-cloud';
import { SCALE_PLANS, SIZE_VARIABLES, benchScale, scaleLabel, scalePlan, type ScalePlan } from '../../../bench/scale';

const sizes = Object.keys(SIZE_VARIABLES) as (keyof ScalePlan)[];

describe('the benchmark scale (bench/scale.ts)', () => {
  it('is small when BENCH_SCALE is unset, and full only when asked', () => {
    expect(benchScale({})).toBe('small');
    expect(scaleLabel({})).toBe('small');
    expect(scalePlan({})).toEqual(SCALE_PLANS.small);
    expect(scalePlan({ BENCH_SCALE: 'full' })).toEqual(SCALE_PLANS.full);
    expect(() => benchScale({ BENCH_SCALE: 'huge' })).toThrow('BENCH_SCALE must be one of small, full, not "huge"');
  });

  it('plans a default run of minutes: every benchmark runs, each far below its full size', () => {
    const small = SCALE_PLANS.small;
    // Sizes that took hours at full scale (a million-row import: about 80 minutes; a 100,000-recipient
    // campaign: about 46) are cut a hundredfold; every figure is still produced (no size is 0).
    expect(small.audience_leads).toBeLessThanOrEqual(SCALE_PLANS.full.audience_leads / 100);
    expect(small.campaign_recipients).toBeLessThanOrEqual(SCALE_PLANS.full.campaign_recipients / 100);
    expect(small.batch_recipients).toBeLessThanOrEqual(SCALE_PLANS.full.batch_recipients / 10);
    for (const size of sizes) {
      expect(small[size]).toBeGreaterThan(0);
      expect(small[size]).toBeLessThanOrEqual(SCALE_PLANS.full[size]);
    }
    // At the full run's measured rates on the shared 2-core machine (201 imported rows a second, 36
    // campaign mails a second), the two slowest parts take under two minutes together.
    expect(small.audience_leads / 201 + small.campaign_recipients / 36).toBeLessThan(120);
  });

  it('lets one variable set one size, and then records the run as custom', () => {
    expect(scalePlan({ BENCH_BATCH_RECIPIENTS: '50' })).toEqual({ ...SCALE_PLANS.small, batch_recipients: 50 });
    expect(scaleLabel({ BENCH_BATCH_RECIPIENTS: '50' })).toBe('custom');
    expect(scaleLabel({ BENCH_SCALE: 'full', BENCH_MAILS: String(SCALE_PLANS.full.single_mails) })).toBe('full');
    expect(() => scalePlan({ BENCH_MAILS: 'many' })).toThrow('BENCH_MAILS must be a whole number of 0 or more, not "many"');
  });
});

describe('bench/results.json keeps figures per scale', () => {
  let dir: string;
  let file: string;
  beforeEach(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-results-'));
    file = path.join(dir, 'results.json');
  });
  afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

  it('writes each figure with its scale, and a small run leaves the full figures as they were', () => {
    writeResults('campaign', { recipients: 100_000, write_units_per_recipient: 7.2 }, 'full', file);
    writeResults('campaign', { recipients: 1_000, write_units_per_recipient: 7.3 }, 'small', file);
    writeResults('batch', { recipients: 1_000 }, 'small', file);

    expect(readFigure('campaign', 'full', file)).toEqual({ scale: 'full', recipients: 100_000, write_units_per_recipient: 7.2 });
    expect(readFigure('campaign', 'small', file)).toEqual({ scale: 'small', recipients: 1_000, write_units_per_recipient: 7.3 });
    expect(readFigure('batch', 'full', file)).toBeUndefined();
    expect(Object.keys(readResults(file)).sort()).toEqual(['full', 'small']);
  });

  it('holds in the committed file: every figure of every scale says its scale', () => {
    const results = readResults();
    expect(Object.keys(results).length).toBeGreaterThan(0);
    for (const [label, group] of Object.entries(results)) {
      expect(['small', 'full', 'custom']).toContain(label);
      for (const [key, figure] of Object.entries(group as Record<string, unknown>)) {
        if (key === 'prices_date') continue;
        expect({ key, scale: (figure as { scale?: unknown }).scale }).toEqual({ key, scale: label });
      }
    }
  });
});
