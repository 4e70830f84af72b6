/** The pure parts of `npm test` (scripts/test.ts): its arguments and the merge of its two runs' results. */
import fs from 'node:fs';

/** The `--outputFile` of the arguments (as `--outputFile=F` or `--outputFile F`) and the arguments without it. */
export function splitOutputFile(given: readonly string[]): { outputFile?: string; rest: string[] } {
  const rest: string[] = [];
  let outputFile: string | undefined;
  for (let i = 0; i < given.length; i++) {
    const arg = given[i];
    if (arg.startsWith('--outputFile=')) outputFile = arg.slice('--outputFile='.length);
    else if (arg === '--outputFile') outputFile = given[++i];
    else rest.push(arg);
  }
  return { outputFile, rest };
}

/** What `jest --json` writes, as far as the merge reads it. */
export interface JestJson {
  success: boolean;
  startTime: number;
  testResults: unknown[];
  [count: string]: unknown;
}

/** The two runs' --json results as one, as a single jest run would have written them. */
export function mergeResults(files: readonly string[]): JestJson | undefined {
  const results = files.flatMap((f) => {
    try {
      return [JSON.parse(fs.readFileSync(f, 'utf8')) as JestJson];
    } catch {
      return [];
    }
  });
  if (results.length === 0) return undefined;
  const merged: JestJson = { ...results[0], testResults: [] };
  for (const key of Object.keys(results[0])) {
    if (key.startsWith('num')) merged[key] = results.reduce((sum, r) => sum + Number(r[key] ?? 0), 0);
  }
  merged.success = results.length === files.length && results.every((r) => r.success);
  merged.startTime = Math.min(...results.map((r) => r.startTime));
  merged.testResults = results.flatMap((r) => r.testResults);
  return merged;
}
