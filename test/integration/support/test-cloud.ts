import fs from 'node:fs';
import { ReceiveMessageCommand, SQSClient } from '@aws-sdk/client-sqs';
import os from 'node:os';
import path from 'node:path';
import { startLocalCloud, type LocalCloud } from '../../../local/cloud';
import type { LocalIamOption } from '../../../local/iam/local-iam';
import type { EventBreach } from '../../../local/event-check';
import { takeStrayInvocations } from '../../../local/iam/function-roles';
import { services } from '../../../composition/services';
import type { Activity } from '../../../shared/mail-pipeline/activity/activity';
import type { WorkerName } from '../../../shared/platform/core/routes';
import { sharedDynamoDbTable } from './shared-dynamodb';

export interface ApiAnswer {
  status: number;
  body: Record<string, unknown>;
  headers: Headers;
}

export interface TestCloud extends LocalCloud {
  /** Calls the local API; `key` becomes a Bearer token, `body` is sent as JSON. */
  api(method: string, path: string, options?: { key?: string | null; body?: unknown; headers?: Record<string, string>; rawBody?: string }): Promise<ApiAnswer>;
  /** Polls GET /v1/activity/:id until `until` holds (10 s at most). */
  waitForActivity(id: string, key: string, until: (a: Record<string, unknown>) => boolean): Promise<Record<string, unknown>>;
  /** The mails the SES emulator holds, newest last. */
  outbox(): Promise<OutboxMail[]>;
  /** Publishes the project's records of a registered domain to the local DNS (`POST /_local/dns/publish`), as its owner would. */
  publishDns(domain: string, key?: string): Promise<void>;
  /**
   * Waits until the pipeline has nothing left to do (LocalCloud.busy false twice in a row): what a
   * test waits for before asserting that nothing more was sent or written, instead of a fixed sleep.
   * `delayed: false` leaves delayed messages (a send scheduled later) out. Fails after `timeoutMs`.
   */
  settled(options?: { delayed?: boolean; timeoutMs?: number }): Promise<void>;
}

export interface OutboxMail {
  messageId: string;
  from: string;
  replyTo: string[];
  destination: { to: string[]; cc: string[]; bcc: string[] };
  subject: string;
  body: { text?: string; html?: string };
  attachments: { filename: string; content: string; contentType: string }[];
}

/**
 * Starts a private local cloud (free ports, a temporary data folder, its own in-memory table: in the
 * run's shared DynamoDB Local, else in one of its own). `tableName` fixes the table's name, for
 * tools that assume the local default `mailroom`. IAM is enforced as in AWS unless `iam` says otherwise, every answer is checked against its route module, and every event published against its webhook payload schema.
 */
export async function startTestCloud(options: { workers?: boolean | readonly WorkerName[]; schedules?: boolean; tableName?: string; iam?: LocalIamOption } = {}): Promise<TestCloud> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'mailroom-it-'));
  const shared = sharedDynamoDbTable();
  const dynamodb = shared && { endpoint: shared.endpoint, tableName: options.tableName ?? shared.tableName };
  const cloud = await startLocalCloud({ dataDir, persist: false, ports: { api: 0, dynamodb: 0, sqs: 0, ses: 0, s3: 0 }, workers: options.workers, schedules: options.schedules, quickStart: true, dynamodb, iam: options.iam, checkAnswers: true, checkEvents: true });
  const api: TestCloud['api'] = async (method, urlPath, opts = {}) => {
    const headers: Record<string, string> = { ...opts.headers };
    const key = opts.key === undefined ? cloud.seed.live_key : opts.key;
    if (key !== null) headers.authorization = `Bearer ${key}`;
    let body: string | undefined = opts.rawBody;
    if (opts.body !== undefined) {
      body = JSON.stringify(opts.body);
      headers['content-type'] ??= 'application/json';
    }
    const res = await fetch(`${cloud.baseUrl}${urlPath}`, { method, headers, body });
    const text = await res.text();
    return { status: res.status, body: text ? (JSON.parse(text) as Record<string, unknown>) : {}, headers: res.headers };
  };
  return {
    ...cloud,
    api,
    async waitForActivity(id, key, until) {
      const deadline = Date.now() + 10_000;
      for (;;) {
        const res = await api('GET', `/v1/activity/${id}`, { key });
        const data = res.body.data as Record<string, unknown> | undefined;
        if (data && until(data)) return data;
        if (Date.now() > deadline) throw new Error(`Activity ${id} never matched; last: ${JSON.stringify(res.body)}`);
        await new Promise((r) => setTimeout(r, 100));
      }
    },
    async settled({ delayed, timeoutMs = 30_000 } = {}) {
      const deadline = Date.now() + timeoutMs;
      // Twice in a row, 50 ms apart: cheap insurance against a hand-over between two counts.
      for (let quietLooks = 0; quietLooks < 2; ) {
        quietLooks = (await cloud.busy({ delayed })) ? 0 : quietLooks + 1;
        if (quietLooks < 2 && Date.now() > deadline) throw new Error(`The local cloud was still busy after ${timeoutMs} ms`);
        await new Promise((r) => setTimeout(r, 50));
      }
    },
    async publishDns(domain, key) {
      const res = await api('POST', '/_local/dns/publish', { key, body: { domain } });
      if (res.status !== 200) throw new Error(`Publishing ${domain} failed: ${res.status} ${JSON.stringify(res.body)}`);
    },
    async outbox() {
      const res = await fetch(`${cloud.sesUrl}/store`);
      return ((await res.json()) as { emails: OutboxMail[] }).emails;
    },
    async stop() {
      await cloud.stop();
      fs.rmSync(dataDir, { recursive: true, force: true });
      // Every answer of the run was checked against its route module, and every event published
      // against its webhook payload schema: a breach fails the file even where no test looked.
      // A handler the test invoked without its function's role would have been checked as nobody's.
      const strays = takeStrayInvocations();
      const problems = [
        ...(cloud.breaches.length > 0 ? [`Answers broke their contract:\n${cloud.breaches.map((b) => `${b.route} ${b.status}: ${b.problem}`).join('\n')}`] : []),
        ...(cloud.eventBreaches.length > 0 ? [`Events broke their webhook payload schema:\n${distinctEventBreaches(cloud.eventBreaches).join('\n')}`] : []),
        ...(strays.length > 0 ? [`Handlers ran without their function's role:\n${[...new Set(strays)].join('\n')}`] : []),
      ];
      if (problems.length > 0) throw new Error(problems.join('\n'));
    },
  };
}

/** Each distinct breach once, with how many times it happened (a published event is often sent again as a delivery job). */
function distinctEventBreaches(breaches: readonly EventBreach[]): string[] {
  const counts = new Map<string, number>();
  for (const b of breaches) {
    const line = `${b.event} (${b.queue} queue): ${b.problem}`;
    counts.set(line, (counts.get(line) ?? 0) + 1);
  }
  return [...counts].map(([line, n]) => (n > 1 ? `${line} (${n} times)` : line));
}

/** A valid single-send body from the seeded sender, with overrides. */
export function sendBody(cloud: LocalCloud, overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    recipient_email: 'reader@example.com',
    sender_email: cloud.seed.sender_email,
    subject: 'Hello',
    html_body: '<p>Hello there</p>',
    ...overrides,
  };
}

/** Reads an activity record straight from the table (for checks the API does not show). */
export async function storedActivity(id: string): Promise<Activity | undefined> {
  const { getActivity } = await import('../../../shared/mail-pipeline/activity/activity-repository');
  return getActivity(services().db, id, true);
}

/** Integration tests need the emulators; give their setup time to start Java. */
export const CLOUD_TIMEOUT_MS = 60_000;

/** Every worker but the webhook fan-out: for tests that read the events queue themselves. */
export const WORKERS_EXCEPT_FANOUT: readonly WorkerName[] = ['send-worker', 'ses-events'];

/**
 * Every event published to the events queue so far, read as a consumer would (for tests that run
 * without the webhook fan-out); each is hidden for 15 minutes, so the next call sees only new ones.
 */
export async function drainEvents(cloud: LocalCloud): Promise<Record<string, any>[]> {
  const sqs = new SQSClient({});
  const out: Record<string, any>[] = [];
  try {
    for (let i = 0; i < 30; i++) {
      const res = await sqs.send(new ReceiveMessageCommand({ QueueUrl: cloud.queueUrls.events, MaxNumberOfMessages: 10, WaitTimeSeconds: 0, VisibilityTimeout: 900 }));
      if (!res.Messages?.length) break;
      out.push(...res.Messages.map((m) => JSON.parse(m.Body ?? '{}')));
    }
  } finally {
    sqs.destroy();
  }
  return out;
}
