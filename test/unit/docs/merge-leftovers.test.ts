import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

/**
 * No file of the repository keeps a merge's conflict markers: a half-resolved merge once left two
 * versions of a docs section side by side, each read as true.
 */

const ROOT = path.join(__dirname, '..', '..', '..');
const MARKER = /^(<{7} |>{7} |={7}$)/m;

describe('merge leftovers', () => {
  it('no tracked text file holds a conflict marker', () => {
    const files = execFileSync('git', ['ls-files'], { cwd: ROOT, encoding: 'utf8' })
      .split('\n')
      .filter((f) => /\.(ts|tsx|md|json|js|css|ya?ml|sh)$/.test(f) || f === '.ci/run');
    const marked = files.filter((f) => fs.existsSync(path.join(ROOT, f)) && MARKER.test(fs.readFileSync(path.join(ROOT, f), 'utf8')));
    expect(marked).toEqual([]);
  });
});
