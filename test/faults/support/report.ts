import fs from 'node:fs';
import path from 'node:path';

/** Where the suite's last figures go (one JSON line per check), read when the figures in docs/testing.md are updated. */
export const FIGURES_FILE = path.resolve(__dirname, '../../../.local/faults-figures.jsonl');

/** Prints a check's figures and appends them to FIGURES_FILE. */
export function reportFigures(check: string, figures: Record<string, unknown>): void {
  const line = JSON.stringify({ check, at: new Date().toISOString(), ...figures });
  fs.mkdirSync(path.dirname(FIGURES_FILE), { recursive: true });
  fs.appendFileSync(FIGURES_FILE, `${line}\n`);
  process.stdout.write(`[faults] ${line}\n`);
}
