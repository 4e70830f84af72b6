import * as fs from 'node:fs';
import * as path from 'node:path';
import { accessByFunction, functionAccess, scheduledAccess, settingKeys, type FunctionAccess } from '../../../lib/access';
import { bucketFunctions, endpointGroups, schedules, workers } from '../../../shared/routes';

const ROOT = path.join(__dirname, '../../..');

// The container builds every adapter for every function, so it would make every function read
// everything; the variables it reads follow from the grants (lib/access.ts), not from settings.
// shared/function-access.ts lists every setting's name: it declares, it reads none.
const NOT_FOLLOWED = new Set(['composition/services.ts', 'shared/config.ts', 'shared/function-access.ts']);

/**
 * Source without comments, so that a variable named in a comment does not count as read, and
 * without a route module's `settings: [...]` declaration, which names what it reads, not reads it.
 */
function code(file: string): string {
  return fs
    .readFileSync(path.join(ROOT, file), 'utf8')
    .replace(/\/\*[\s\S]*?\*\//g, '')
    .replace(/(^|[^:'"`])\/\/.*$/gm, '$1')
    .replace(/\bsettings:\s*\[[^\]]*\]/g, '');
}

/** Every module a handler reaches through relative imports (`import type` included: it names what the code reads). */
function reachable(entry: string): Set<string> {
  const seen = new Set<string>();
  const pending = [entry];
  while (pending.length > 0) {
    const file = pending.pop()!;
    if (seen.has(file) || NOT_FOLLOWED.has(file)) continue;
    seen.add(file);
    for (const [, spec] of code(file).matchAll(/(?:from|import)\s*\(?\s*'(\.{1,2}\/[^']+)'/g)) {
      const base = path.relative(ROOT, path.resolve(ROOT, path.dirname(file), spec));
      const found = [`${base}.ts`, `${base}/index.ts`].find((f) => fs.existsSync(path.join(ROOT, f)));
      if (found) pending.push(found);
    }
  }
  return seen;
}

/** The settings (LOG_LEVEL aside: every function logs) named by the code a handler reaches. */
function settingsRead(entry: string): string[] {
  const files = [...reachable(entry)];
  return settingKeys.filter((key) => key !== 'LOG_LEVEL' && files.some((f) => new RegExp(`\\b${key}\\b`).test(code(f))));
}

const functions: [string, string, FunctionAccess][] = [
  ...Object.entries(endpointGroups).map(([n, d]) => [n, d.entry, accessByFunction()[n as keyof typeof endpointGroups]] as [string, string, FunctionAccess]),
  ...Object.entries(workers).map(([n, d]) => [n, d.entry, functionAccess[n as keyof typeof workers]] as [string, string, FunctionAccess]),
  ...Object.entries(bucketFunctions).map(([n, d]) => [n, d.entry, functionAccess[n as keyof typeof bucketFunctions]] as [string, string, FunctionAccess]),
  ...Object.entries(schedules).map(([n, d]) => [n, d.entry, scheduledAccess[n as keyof typeof schedules]] as [string, string, FunctionAccess]),
];

describe('the settings each function is given (lib/access.ts)', () => {
  it.each(functions)('%s: are exactly the settings its code reads', (_name, entry, access) => {
    expect([...(access.settings ?? [])].sort()).toEqual(settingsRead(entry).sort());
  });

  it('the check sees a setting read a few imports away', () => {
    // send -> ... -> shared/sending/accept-send.ts reads SERVICE_NAME for the default subject.
    expect(settingsRead(endpointGroups.send.entry)).toContain('SERVICE_NAME');
    expect(settingsRead(endpointGroups.templates.entry)).not.toContain('SERVICE_NAME');
  });
});
