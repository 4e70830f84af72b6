import fs from 'node:fs';
import path from 'node:path';

/** Child processes are recorded by pid, so that a crashed run's leftovers are stopped on the next start. */
export function recordPid(dir: string, name: string, pid: number): void {
  fs.mkdirSync(dir, { recursive: true });
  fs.writeFileSync(path.join(dir, `${name}.pid`), String(pid));
}

/** Forgets a recorded pid after a clean stop. */
export function forgetPid(dir: string, name: string): void {
  fs.rmSync(path.join(dir, `${name}.pid`), { force: true });
}

/** Kills a process left behind by an earlier run (if its pid file is still there). */
export function killStale(dir: string, name: string): void {
  const file = path.join(dir, `${name}.pid`);
  if (!fs.existsSync(file)) return;
  const pid = Number(fs.readFileSync(file, 'utf8'));
  if (pid > 0 && isAlive(pid)) {
    try {
      process.kill(pid, 'SIGKILL');
    } catch {
      // Already gone.
    }
  }
  fs.rmSync(file, { force: true });
}

/** True while a process with this pid exists. */
export function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/** Sends SIGTERM, then SIGKILL if the process is still there after `graceMs`; resolves when it is gone. */
export async function stopPid(pid: number, graceMs = 3000): Promise<void> {
  if (!isAlive(pid)) return;
  try {
    process.kill(pid, 'SIGTERM');
  } catch {
    return;
  }
  const deadline = Date.now() + graceMs;
  while (isAlive(pid) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
  if (isAlive(pid)) {
    try {
      process.kill(pid, 'SIGKILL');
    } catch {
      return;
    }
    while (isAlive(pid)) await new Promise((r) => setTimeout(r, 20));
  }
}
