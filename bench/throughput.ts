/**
 * The local cloud's end-to-end throughput: single sends through the local API, with
 * every worker running, until each mail is in the SES emulator's outbox. What a laptop user sees;
 * it says nothing of AWS, where each function scales on its own.
 */
import fs from 'node:fs';
import { withBenchCloud, writeResults } from './bench-cloud';
import { scalePlan } from './scale';

export interface ThroughputResult {
  mails: number;
  concurrency: number;
  seconds: number;
  mails_per_second: number;
}

/** Sends `mails` single sends, `concurrency` at a time, and times them from the first request to the last .eml file. */
export async function measureThroughput(mails = scalePlan().throughput_mails, concurrency = 20): Promise<ThroughputResult> {
  // Every worker runs, as under `npm start`: the figure is the whole pipeline's.
  return withBenchCloud(async (cloud) => {
    const outbox = () => (fs.existsSync(cloud.outboxDir) ? fs.readdirSync(cloud.outboxDir).filter((f) => f.endsWith('.eml')).length : 0);
    const before = outbox();
    const send = async (i: number) => {
      const res = await fetch(`${cloud.baseUrl}/v1/send-email`, {
        method: 'POST',
        headers: { authorization: `Bearer ${cloud.seed.live_key}`, 'content-type': 'application/json' },
        body: JSON.stringify({ recipient_email: `reader${i}@example.com`, sender_email: cloud.seed.sender_email, subject: `Mail ${i}`, html_body: `<p>Mail ${i}</p>` }),
      });
      if (res.status !== 200) throw new Error(`send ${i} answered ${res.status}: ${await res.text()}`);
    };
    const started = performance.now();
    let next = 0;
    await Promise.all(Array.from({ length: concurrency }, async () => {
      while (next < mails) await send(next++);
    }));
    const deadline = Date.now() + 10 * 60_000;
    while (outbox() - before < mails) {
      if (Date.now() > deadline) throw new Error(`only ${outbox() - before} of ${mails} mails reached the outbox in 10 minutes`);
      await new Promise((r) => setTimeout(r, 100));
    }
    const seconds = (performance.now() - started) / 1000;
    return { mails, concurrency, seconds: Math.round(seconds * 100) / 100, mails_per_second: Math.round((mails / seconds) * 10) / 10 };
  }, { workers: true, name: 'throughput' });
}

/** Measures, prints, and merges the figure into bench/results.json under `local_cloud`. */
export async function runThroughputBench(): Promise<void> {
  const result = await measureThroughput();
  writeResults('local_cloud', result);
  console.log(`\nLocal cloud, API to outbox: ${result.mails} mails in ${result.seconds} s = ${result.mails_per_second} mails a second (${result.concurrency} requests at a time)\n`);
}
