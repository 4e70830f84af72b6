import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { mergeResults, splitOutputFile } from '../../../scripts/test-results';

describe('npm test: its arguments', () => {
  test('takes --outputFile out of the arguments, in either form, and keeps the rest in order', () => {
    expect(splitOutputFile(['--json', '--outputFile=/tmp/r.json', 'a.test.ts'])).toEqual({ outputFile: '/tmp/r.json', rest: ['--json', 'a.test.ts'] });
    expect(splitOutputFile(['--outputFile', '/tmp/r.json', '--json'])).toEqual({ outputFile: '/tmp/r.json', rest: ['--json'] });
    expect(splitOutputFile(['a.test.ts'])).toEqual({ outputFile: undefined, rest: ['a.test.ts'] });
  });
});

describe('npm test: the two runs merged into one result', () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'test-results-'));
  afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));
  const write = (name: string, value: object) => {
    const file = path.join(dir, name);
    fs.writeFileSync(file, JSON.stringify(value));
    return file;
  };
  const integration = { success: true, startTime: 200, numPassedTests: 10, numFailedTests: 0, numTotalTestSuites: 2, testResults: ['i1', 'i2'] };

  test('sums the counts, keeps the earliest start and every file result, and succeeds when both did', () => {
    const other = write('b.json', { success: true, startTime: 100, numPassedTests: 5, numFailedTests: 0, numTotalTestSuites: 1, testResults: ['u1'] });
    expect(mergeResults([write('a.json', integration), other])).toEqual({ success: true, startTime: 100, numPassedTests: 15, numFailedTests: 0, numTotalTestSuites: 3, testResults: ['i1', 'i2', 'u1'] });
  });

  test('fails when either run failed', () => {
    const failed = write('c.json', { success: false, startTime: 100, numPassedTests: 4, numFailedTests: 1, numTotalTestSuites: 1, testResults: ['u1'] });
    expect(mergeResults([write('a.json', integration), failed])).toMatchObject({ success: false, numPassedTests: 14, numFailedTests: 1 });
  });

  test('fails when a run wrote no result (it crashed), and gives none when neither did', () => {
    expect(mergeResults([write('a.json', integration), path.join(dir, 'missing.json')])).toMatchObject({ success: false, numPassedTests: 10 });
    expect(mergeResults([path.join(dir, 'x.json'), path.join(dir, 'y.json')])).toBeUndefined();
  });
});
