import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { HttpFetcher } from '../../../../shared/platform/adapters/http-fetcher';
import { RetryLaterError } from '../../../../shared/platform/queue-worker/batch-handler';
import { AttachmentMemory } from '../../../../shared/mail-pipeline/attachment-memory';
import { AttachmentError, resolveAttachments } from '../../../../shared/mail-pipeline/attachments';
import { SEND_LIMITS } from '../../../../shared/mail-pipeline/limits';
import { WORKER_TIMEOUT_SECONDS, queues } from '../../../../shared/platform/core/queues';

/**
 * A send worker's attachment URLs (part 3: an unreachable URL fails the send): fetched a few at a
 * time, each within a deadline and all within the mail's, the mail's total and the process's
 * attachment memory capped, against a loopback server that answers slowly or trickles bytes.
 */
describe('attachment URLs of one mail', () => {
  let server: http.Server;
  let base: string;
  let open = 0;
  let mostOpen = 0;
  const MB = 1024 * 1024;
  const fetcher = new HttpFetcher({ allowLoopback: true });

  beforeAll(async () => {
    server = http.createServer((req, res) => {
      open++;
      mostOpen = Math.max(mostOpen, open);
      res.on('close', () => open--);
      res.on('error', () => undefined);
      const url = new URL(req.url ?? '/', 'http://x');
      if (url.pathname === '/slow') {
        // Answers whole after a pause: the time a parallel fetch overlaps.
        setTimeout(() => {
          res.writeHead(200, { 'Content-Type': 'text/plain' });
          res.end('slow but whole');
        }, Number(url.searchParams.get('ms')));
        return;
      }
      if (url.pathname === '/trickle') {
        // A byte every 100 ms, never done: never idle long enough for an idle timeout.
        res.writeHead(200, { 'Content-Type': 'application/octet-stream' });
        const timer = setInterval(() => res.write('x'), 100);
        res.on('close', () => clearInterval(timer));
        return;
      }
      if (url.pathname === '/hop') {
        // Trickles for a while, then redirects to the next hop: each hop alone stays under a per-hop timeout.
        const left = Number(url.searchParams.get('left'));
        setTimeout(() => {
          if (left === 0) {
            res.writeHead(200, { 'Content-Type': 'text/plain' });
            return void res.end('after the hops');
          }
          res.writeHead(302, { Location: `/hop?left=${left - 1}&ms=${url.searchParams.get('ms')}` });
          res.end();
        }, Number(url.searchParams.get('ms')));
        return;
      }
      if (url.pathname === '/mb') {
        const size = Number(url.searchParams.get('n')) * MB;
        res.writeHead(200, { 'Content-Type': 'application/octet-stream', 'Content-Length': size });
        res.end(Buffer.alloc(size, 1));
        return;
      }
      res.writeHead(404);
      res.end();
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  });
  beforeEach(() => {
    mostOpen = 0;
  });

  const url = (path: string, filename = 'a.txt') => ({ filename, url: `${base}${path}` });

  test(`ten URLs are fetched ${SEND_LIMITS.attachmentFetchConcurrency} at a time, not one after another, and come back in order`, async () => {
    const memory = new AttachmentMemory(SEND_LIMITS.attachmentMemoryBytes);
    const started = Date.now();
    const { attachments, release } = await resolveAttachments(
      fetcher,
      Array.from({ length: 10 }, (_, i) => url('/slow?ms=400', `f${i}.txt`)),
      { memory },
    );
    const elapsed = Date.now() - started;
    expect(attachments.map((a) => a.filename)).toEqual(Array.from({ length: 10 }, (_, i) => `f${i}.txt`));
    expect(attachments[0].content.toString()).toBe('slow but whole');
    expect(mostOpen).toBe(SEND_LIMITS.attachmentFetchConcurrency);
    // Three rounds of 400 ms, where one after another took ten.
    expect(elapsed).toBeLessThan(2500);
    expect(memory.usedBytes).toBeGreaterThan(0);
    release();
    expect(memory.usedBytes).toBe(0);
  });

  test('a URL that trickles bytes forever fails the send at the mail\'s deadline, with a clear message', async () => {
    const started = Date.now();
    const outcome = resolveAttachments(fetcher, [url('/slow?ms=10', 'ok.txt'), url('/trickle', 'slow.pdf')], { deadlineMs: 1000 });
    await expect(outcome).rejects.toThrow(AttachmentError);
    await expect(outcome).rejects.toThrow("Attachment slow.pdf could not be fetched: the mail's attachments took longer than 1 s");
    expect(Date.now() - started).toBeLessThan(2500);
  });

  test('the per-URL deadline covers every redirect hop together, not each hop anew', async () => {
    const started = Date.now();
    // Four hops of 400 ms each: 1.6 s in all, past an 1 s deadline though no single hop reaches it.
    await expect(fetcher.fetch(`${base}/hop?left=3&ms=400`, { maxBytes: 1000, timeoutMs: 1000 })).rejects.toThrow('timed out after 1000 ms');
    expect(Date.now() - started).toBeLessThan(1500);
  });

  test('downloads stop as soon as the mail passes 10 MB in total', async () => {
    const memory = new AttachmentMemory(100 * MB);
    const outcome = resolveAttachments(fetcher, [url('/mb?n=4'), url('/mb?n=4'), url('/mb?n=4')], { memory });
    await expect(outcome).rejects.toThrow('Attachments exceed 10 MB in total');
    expect(memory.usedBytes).toBe(0);
  });

  test("a mail that finds the process's attachment memory spent is retried later, not failed, and gives back what it took", async () => {
    const memory = new AttachmentMemory(5 * MB);
    const holder = memory.lease();
    holder.take(3 * MB);
    const outcome = resolveAttachments(fetcher, [url('/mb?n=3')], { memory });
    await expect(outcome).rejects.toThrow(RetryLaterError);
    expect(memory.usedBytes).toBe(3 * MB);
    holder.release();
    // With the memory free again, the same mail goes through.
    const { attachments, release } = await resolveAttachments(fetcher, [url('/mb?n=3')], { memory });
    expect(attachments[0].content).toHaveLength(3 * MB);
    release();
    expect(memory.usedBytes).toBe(0);
  });
});

describe('attachment deadlines against the send worker', () => {
  test("one URL's deadline fits in the mail's, and the mail's leaves at least half the worker's timeout for the rest of the send", () => {
    expect(SEND_LIMITS.attachmentFetchTimeoutMs).toBeLessThanOrEqual(SEND_LIMITS.attachmentFetchesDeadlineMs);
    expect(SEND_LIMITS.attachmentFetchesDeadlineMs).toBeLessThanOrEqual((WORKER_TIMEOUT_SECONDS * 1000) / 2);
    expect(WORKER_TIMEOUT_SECONDS).toBeLessThan(queues.send.visibilityTimeoutSeconds);
  });
});
