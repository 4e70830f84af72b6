/**
 * `npm run faults:figures`: the figures docs/testing.md reports, one line each, from the last run of each
 * check in FIGURES_FILE (written by `npm run test:faults`), so the table in docs/testing.md can be refreshed
 * from a run instead of from memory.
 */
import fs from 'node:fs';
import { FIGURES_FILE } from './report';

type Line = Record<string, unknown> & { check: string; at: string };

/** Counters that are not faults: writes the table saw, and batches merely shuffled (SQS gives no order). */
const NOT_FAULTS = new Set(['dynamodb_write_seen', 'sqs_batch_shuffled']);

/** The last line of each check, in file order. */
function lastRuns(text: string): Line[] {
  const last = new Map<string, Line>();
  for (const raw of text.split('\n')) {
    if (!raw.trim()) continue;
    const line = JSON.parse(raw) as Line;
    last.set(line.check, line);
  }
  return [...last.values()];
}

/** The summary lines of one check's figures. */
function summary(line: Line): string[] {
  const n = (name: string) => Number(line[name] ?? 0);
  switch (line.check) {
    case 'pipeline':
    case 'load': {
      const out: string[] = [];
      const faults = (line.faults ?? {}) as Record<string, number>;
      const injected = Object.entries(faults).filter(([kind]) => !NOT_FAULTS.has(kind));
      if (line.check === 'pipeline') {
        out.push(`faults injected: ${injected.reduce((sum, [, count]) => sum + count, 0)} (${injected.map(([kind, count]) => `${kind} ${count}`).join(', ')}; seed ${String(line.seed)})`);
      }
      out.push(`mails accepted: ${n('accepted')}, in the outbox: ${n('mailsInOutbox')}, failed for good: ${n('failedForGood')}`);
      out.push(`lost: ${n('lost')}`, `duplicated: ${n('duplicated')}`);
      const missing = Array.isArray(line.missingWebhooks) ? line.missingWebhooks.length : n('missingWebhooks');
      out.push(`webhook events delivered: ${n('webhookEventsDelivered')} of ${n('webhookEventsExpected')} (missing ${missing})`);
      if (line.mailsPerSecond !== undefined) out.push(`mails a second, API to outbox: ${Number(line.mailsPerSecond).toFixed(1)}`);
      return out;
    }
    case 'fuzz':
      return [`fuzz cases: ${n('cases')} (seed ${String(line.seed)}, ${n('runsPerRoute')} a route)`, `5xx answers: ${n('fiveHundreds')}`];
    case 'isolation':
      return [`isolation: ${n('routes')} routes x ${n('intruders')} intruders, ${n('calls')} calls, not 404: ${n('not404')}`];
    default: {
      const { check: _check, at: _at, ...rest } = line;
      return [JSON.stringify(rest)];
    }
  }
}

if (!fs.existsSync(FIGURES_FILE)) {
  process.stderr.write(`No figures yet: run npm run test:faults (it writes ${FIGURES_FILE})\n`);
  process.exit(1);
}
for (const line of lastRuns(fs.readFileSync(FIGURES_FILE, 'utf8'))) {
  for (const text of summary(line)) process.stdout.write(`[${line.check} ${line.at}] ${text}\n`);
}
