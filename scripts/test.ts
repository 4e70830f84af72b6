/**
 * `npm test`: the integration project in one jest process and the unit and infra projects in a
 * second, side by side, each one file at a time. The integration files spend much of their time
 * waiting on workers, timers and emulators; the unit and infra files are CPU (transforms, synths,
 * bundling) and fill that idle core. The second process's output is printed after the first's so
 * that neither interleaves. `--json --outputFile=F` (as CI passes it) writes one merged result to F.
 * Any `--selectProjects` in the arguments runs a single jest with them as given.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { mergeResults, splitOutputFile } from './test-results';

const JEST = require.resolve('jest/bin/jest');
const args = process.argv.slice(2);

const children = new Set<ChildProcess>();

/** Runs jest with `jestArgs`, its output to this process's (`log` undefined) or to the file `log`; resolves with its exit code. */
function jest(jestArgs: string[], log?: string): Promise<number> {
  const out = log === undefined ? 'inherit' : fs.openSync(log, 'w');
  const child = spawn(process.execPath, [JEST, ...jestArgs], { stdio: ['ignore', out, out] });
  children.add(child);
  return new Promise((resolve) => {
    child.on('exit', (code, signal) => {
      children.delete(child);
      resolve(code ?? (signal ? 1 : 0));
    });
  });
}

// A stop of `npm test` (Ctrl-C, CI's timeout) stops both runs, which stop their emulators.
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.on(signal, () => {
    for (const child of children) child.kill(signal);
  });
}

async function main(): Promise<number> {
  if (args.includes('--selectProjects') || args.some((a) => a.startsWith('--selectProjects='))) return jest(['--runInBand', ...args]);
  const { outputFile, rest } = splitOutputFile(args);
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'mailroom-test-'));
  const json = (name: string) => (outputFile ? [`--outputFile=${path.join(dir, `${name}.json`)}`] : []);
  const secondLog = path.join(dir, 'unit-infra.log');
  try {
    // A path given to npm test may match files of one side only: the other side then has none.
    const common = ['--runInBand', '--passWithNoTests', ...rest];
    const [integration, unitInfra] = await Promise.all([
      jest(['--selectProjects', 'integration', ...common, ...json('integration')]),
      jest(['--selectProjects', 'unit', 'infra', ...common, ...json('unit-infra')], secondLog),
    ]);
    process.stderr.write(`\n--- unit and infra (run beside the integration tests) ---\n`);
    process.stderr.write(fs.readFileSync(secondLog, 'utf8'));
    if (outputFile) {
      const merged = mergeResults([path.join(dir, 'integration.json'), path.join(dir, 'unit-infra.json')]);
      if (merged) fs.writeFileSync(outputFile, JSON.stringify(merged));
    }
    return integration !== 0 ? integration : unitInfra;
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    console.error(error);
    process.exit(1);
  },
);
