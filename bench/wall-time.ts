/**
 * Each part's wall time in a bench run: printed as it ends (`[bench] batch: 42 s`) and kept, so that
 * bench/run.ts records them in bench/results.json (`wall_time`) beside the machine's load, which on a
 * shared machine moves them more than any change of the bench does.
 */
import os from 'node:os';

const seconds: Record<string, number> = {};

/** Runs `run`, prints how long it took under `name` and keeps the figure (seconds, one decimal). */
export async function timed<T>(name: string, run: () => Promise<T>): Promise<T> {
  const from = performance.now();
  try {
    return await run();
  } finally {
    seconds[name] = Math.round((performance.now() - from) / 100) / 10;
    console.log(`[bench] ${name}: ${seconds[name]} s`);
  }
}

/** The parts timed so far in this process, in the order they ended. */
export function partSeconds(): Record<string, number> {
  return { ...seconds };
}

/** The 1, 5 and 15 minute load averages and the cores, as a run records them (on Windows the averages are 0). */
export function machineLoad(): { load_average: number[]; cores: number } {
  return { load_average: os.loadavg().map((l) => Math.round(l * 100) / 100), cores: os.availableParallelism() };
}
