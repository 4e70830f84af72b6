import * as fs from 'node:fs';
import * as path from 'node:path';
import { accessByFunction, functionAccess, scheduledAccess, settingKeys, type FunctionAccess } from '../../../lib/access';
import { bucketFunctions, endpointGroups, schedules, workers } from '../../../shared/platform/core/routes';

const ROOT = path.join(__dirname, '../../..');

// The container builds every adapter for every function, so it would make every function read
// everything; the variables it reads follow from the grants (lib/access.ts), not from settings.
// shared/platform/core/function-access.ts lists every setting's name: it declares, it reads none.
const NOT_FOLLOWED = new Set(['composition/services.ts', 'shared/platform/core/config.ts', 'shared/platform/core/function-access.ts']);

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

/**
 * A barrel's names and the modules they come from, when the file only re-exports
 * (shared/mail-pipeline/index.ts); undefined for any other file.
 */
function barrelExports(file: string): Map<string, string> | undefined {
  if (!file.endsWith('/index.ts')) return undefined;
  const text = code(file);
  const statements = [...text.matchAll(/export\s*\{([^}]*)\}\s*from\s*'(\.{1,2}\/[^']+)';?/g)];
  if (statements.length === 0 || text.replace(/export\s*\{[^}]*\}\s*from\s*'[^']+';?/g, '').trim() !== '') return undefined;
  const names = new Map<string, string>();
  for (const [, list, spec] of statements) for (const name of namesOf(list)) names.set(name, spec);
  return names;
}

/** The names of an import or export list (`a, type B, c as d` -> a, B, c). */
function namesOf(list: string): string[] {
  return list.split(',').map((n) => n.trim().replace(/^type\s+/, '').split(/\s+as\s+/)[0]).filter(Boolean);
}

/** The .ts file a relative specifier of `file` names. */
function resolveSpec(file: string, spec: string): string | undefined {
  const base = path.relative(ROOT, path.resolve(ROOT, path.dirname(file), spec));
  return [`${base}.ts`, `${base}/index.ts`].find((f) => fs.existsSync(path.join(ROOT, f)));
}

/**
 * Every module a handler reaches through relative imports (`import type` included: it names what the
 * code reads). Through a barrel only the modules of the names imported are followed, as esbuild
 * bundles them (the pipeline's folder declares `sideEffects: false`).
 */
function reachable(entry: string): Set<string> {
  const seen = new Set<string>();
  const pending = [entry];
  while (pending.length > 0) {
    const file = pending.pop()!;
    if (seen.has(file) || NOT_FOLLOWED.has(file)) continue;
    seen.add(file);
    const text = code(file);
    for (const [, spec] of text.matchAll(/(?:from|import)\s*\(?\s*'(\.{1,2}(?:\/[^']+)?)'/g)) {
      const found = resolveSpec(file, spec);
      if (!found) continue;
      const barrel = barrelExports(found);
      const named = [...text.matchAll(new RegExp(`\\{([^}]*)\\}\\s*from\\s*'${spec.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')}'`, 'g'))];
      if (!barrel || named.length === 0) {
        pending.push(found);
        continue;
      }
      for (const name of named.flatMap(([, list]) => namesOf(list))) {
        const from = barrel.get(name);
        const module = from && resolveSpec(found, from);
        if (module) pending.push(module);
      }
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
    // send -> ... -> shared/mail-pipeline/policies.ts reads SERVICE_NAME for the default subject.
    expect(settingsRead(endpointGroups.send.entry)).toContain('SERVICE_NAME');
    expect(settingsRead(endpointGroups.templates.entry)).not.toContain('SERVICE_NAME');
  });
});
