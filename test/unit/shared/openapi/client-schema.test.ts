import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';

const ROOT = join(__dirname, '../../../..');
const SCHEMA = 'clients/typescript/src/schema.d.ts';

/** The first line where two texts differ, as `line N: expected / found`, or undefined when equal. */
function firstDifference(expected: string, found: string): string | undefined {
  if (expected === found) return undefined;
  const a = expected.split('\n');
  const b = found.split('\n');
  const line = a.findIndex((text, i) => text !== b[i]);
  const at = line === -1 ? a.length : line;
  return `line ${at + 1}: generated ${JSON.stringify(a[at])}, committed ${JSON.stringify(b[at])}`;
}

describe("the client's types", () => {
  it(`are what openapi-typescript generates from openapi/openapi.json (${SCHEMA}; run \`npm run openapi\`)`, async () => {
    // The same command as scripts/openapi.ts, its output to stdout rather than over the file.
    const { stdout } = await promisify(execFile)(process.execPath, [join(ROOT, 'node_modules/openapi-typescript/bin/cli.js'), 'openapi/openapi.json'], {
      cwd: ROOT,
      maxBuffer: 64 * 1024 * 1024,
    });
    expect(stdout.length).toBeGreaterThan(0);
    expect(firstDifference(stdout, readFileSync(join(ROOT, SCHEMA), 'utf8'))).toBeUndefined();
  }, 60_000);
});
