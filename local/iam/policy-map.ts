import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import type { PolicyMap } from './policy-map-format';

const ROOT = path.resolve(__dirname, '../..');
const CACHE_DIR = path.join(ROOT, 'node_modules', '.cache', 'mailroom-iam');

/** Every .ts file under a folder of the repository, sorted. */
function sources(folder: string): string[] {
  return (fs.readdirSync(path.join(ROOT, folder), { recursive: true }) as string[])
    .filter((f) => f.endsWith('.ts'))
    .map((f) => path.join(folder, f))
    .sort();
}

/**
 * What the policies are synthesized from: the stack (lib/), the route modules whose `access` the
 * groups' grants are the union of (functions/), the shared definitions the stack imports, the
 * synthesizer itself and the CDK version. A change to any of them synthesizes the map again.
 */
function sourceHash(): string {
  const shared = new Set<string>();
  const files = [...sources('lib'), 'local/iam/synth-policy-map.ts', 'local/iam/policy-map-format.ts'];
  for (const file of files) {
    for (const m of fs.readFileSync(path.join(ROOT, file), 'utf8').matchAll(/from '\.\.\/(?:\.\.\/)?(shared\/[\w/-]+)'/g)) shared.add(`${m[1]}.ts`);
  }
  const hash = createHash('sha256');
  for (const file of [...files, ...sources('functions'), ...[...shared].sort()]) hash.update(file).update(fs.readFileSync(path.join(ROOT, file)));
  hash.update(JSON.parse(fs.readFileSync(path.join(ROOT, 'node_modules/aws-cdk-lib/package.json'), 'utf8')).version as string);
  return hash.digest('hex').slice(0, 16);
}

let loaded: { hash: string; map: PolicyMap } | undefined;

/**
 * The stack's policy map, synthesized once per version of the stack's sources and kept under
 * node_modules/.cache (a synth takes 10 to 30 seconds; reading the file, milliseconds).
 */
export function stackPolicyMap(): PolicyMap {
  const hash = sourceHash();
  if (loaded?.hash === hash) return loaded.map;
  const file = path.join(CACHE_DIR, `policy-map-${hash}.json`);
  if (!fs.existsSync(file)) {
    fs.mkdirSync(CACHE_DIR, { recursive: true });
    const partial = `${file}.${process.pid}.tmp`;
    const tsx = path.join(ROOT, 'node_modules', 'tsx', 'dist', 'cli.mjs');
    execFileSync(process.execPath, [tsx, path.join(ROOT, 'local/iam/synth-policy-map.ts'), partial], { cwd: ROOT, stdio: ['ignore', 'ignore', 'inherit'] });
    // Renamed whole: a concurrent reader sees the old map or the new one, never half of it.
    fs.renameSync(partial, file);
  }
  loaded = { hash, map: JSON.parse(fs.readFileSync(file, 'utf8')) as PolicyMap };
  return loaded.map;
}

/** Replaces the `${name}` placeholders of a policy map by the local names (unknown ones stay, and match nothing local). */
export function bindPolicyMap(map: PolicyMap, names: Readonly<Record<string, string>>): PolicyMap {
  const text = JSON.stringify(map).replace(/\$\{([\w.-]+)\}/g, (whole, name: string) => names[name] ?? whole);
  return JSON.parse(text) as PolicyMap;
}
