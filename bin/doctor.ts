/**
 * `npm run admin -- doctor`: sends one canary mail through the whole pipeline (API, send queue and
 * worker, SES, SES events, the activity API, webhooks) and names the first step that broke. It
 * talks to the service only through its public HTTP API, so the same code checks the local cloud
 * and a deployed stack.
 */
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { randomUUID } from 'node:crypto';
import { parseArgs } from 'node:util';
import { bodySignature } from '../shared/notifications/webhooks/signing';

/** SES's mailbox simulator: accepted and delivered, never reaches a person, not counted in the account's reputation. */
export const CANARY_RECIPIENT = 'success@simulator.amazonses.com';
/** Seconds each step may take unless `--timeout` says otherwise. */
export const DEFAULT_STEP_TIMEOUT_SECONDS = 30;

export const DOCTOR_USAGE = `Usage: npm run admin -- doctor [options]

Sends a canary mail to ${CANARY_RECIPIENT} and follows it: api, send worker, ses events,
activity, webhooks. Prints each step; exits 1 naming the first step that broke.

  (no options)                     the local cloud of \`npm start\`: reads .local/seed.json, and
                                   points the demo project's webhook at a receiver of its own for
                                   the run (the previous URL is put back)
  --seed <path>                    another seed file of a local cloud
  --base-url <url> --key <key> --sender <address>
                                   a deployed stack: the ApiUrl output, a project's live key and a
                                   sender verified for that project (or MAILROOM_BASE_URL,
                                   MAILROOM_API_KEY, MAILROOM_SENDER); webhooks are checked through
                                   GET /v1/webhooks/failures only
  --timeout <seconds>              per step (default ${DEFAULT_STEP_TIMEOUT_SECONDS})
  --json                           the steps as JSON`;

/** The doctor's steps, in pipeline order. */
export const DOCTOR_STEPS = ['api', 'send worker', 'ses events', 'activity', 'webhooks'] as const;
export type DoctorStepName = (typeof DOCTOR_STEPS)[number];

export interface StepResult {
  readonly step: DoctorStepName;
  readonly status: 'ok' | 'failed' | 'skipped';
  readonly detail: string;
  readonly ms: number;
}

/** Where the canary goes. `local` adds the partner key and project id that let doctor own the webhook for the run. */
export interface DoctorTarget {
  readonly baseUrl: string;
  readonly key: string;
  readonly sender: string;
  readonly local?: { readonly partnerKey: string; readonly projectId: string };
}

export interface DoctorOptions {
  readonly target: DoctorTarget;
  readonly stepTimeoutMs: number;
  /** Each step as it ends (the CLI prints it). */
  readonly onStep?: (result: StepResult) => void;
  /** Poll interval (tests shorten it). */
  readonly pollMs?: number;
}

/** A step that did not hold: its message says what was seen and where to look. */
class StepFailure extends Error {}

interface Answer {
  readonly status: number;
  readonly body: Record<string, any>;
}

/** Runs the steps in order and stops at the first failure; the results say which one broke. */
export async function runDoctor(options: DoctorOptions): Promise<StepResult[]> {
  const { target, stepTimeoutMs } = options;
  const pollMs = options.pollMs ?? 250;
  const results: StepResult[] = [];
  const call = async (method: string, path: string, body?: unknown, key = target.key): Promise<Answer> => {
    let res: Response;
    try {
      res = await fetch(`${target.baseUrl}${path}`, {
        method,
        headers: { authorization: `Bearer ${key}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
        body: body === undefined ? undefined : JSON.stringify(body),
        signal: AbortSignal.timeout(stepTimeoutMs),
      });
    } catch (error) {
      throw new StepFailure(`no answer from ${target.baseUrl}${path}: ${(error as Error).message}${target.local ? ' (is `npm start` running?)' : ''}`);
    }
    const text = await res.text();
    let parsed: Record<string, any> = {};
    try {
      parsed = text ? (JSON.parse(text) as Record<string, any>) : {};
    } catch {
      parsed = { raw: text.slice(0, 200) };
    }
    return { status: res.status, body: parsed };
  };
  /** Polls `probe` until it returns a value, or fails the step with `timeoutMessage(last)` after the step timeout. */
  const waitFor = async <T>(probe: () => Promise<{ done: T } | { last: string }>, timeoutMessage: (last: string) => string): Promise<T> => {
    const deadline = Date.now() + stepTimeoutMs;
    for (;;) {
      const r = await probe();
      if ('done' in r) return r.done;
      if (Date.now() >= deadline) throw new StepFailure(timeoutMessage(r.last));
      await new Promise((resolve) => setTimeout(resolve, pollMs));
    }
  };
  const step = async (name: DoctorStepName, run: () => Promise<string | { skipped: string }>): Promise<boolean> => {
    const started = Date.now();
    let result: StepResult;
    try {
      const out = await run();
      result = typeof out === 'string' ? { step: name, status: 'ok', detail: out, ms: Date.now() - started } : { step: name, status: 'skipped', detail: out.skipped, ms: Date.now() - started };
    } catch (error) {
      result = { step: name, status: 'failed', detail: error instanceof StepFailure ? error.message : `unexpected error: ${(error as Error).message}`, ms: Date.now() - started };
    }
    results.push(result);
    options.onStep?.(result);
    return result.status !== 'failed';
  };

  const canary = randomUUID();
  const receiver = target.local ? await WebhookReceiver.start() : undefined;
  let restoreWebhook: (() => Promise<void>) | undefined;
  try {
    let emailId = '';
    let secret = '';
    const activity = (include = '') => call('GET', `/v1/activity/${emailId}${include}`);
    const statusOf = (a: Answer) => (a.status === 200 ? String(a.body.data?.current_status) : `HTTP ${a.status} ${JSON.stringify(a.body)}`);

    const ok = await step('api', async () => {
      if (receiver && target.local) {
        secret = await webhookSecret(call);
        restoreWebhook = await pointWebhookAt(call, target.local, receiver.url);
      }
      const res = await call('POST', '/v1/send-email', {
        recipient_email: CANARY_RECIPIENT,
        sender_email: target.sender,
        subject: `Mailroom doctor canary ${canary}`,
        html_body: `<p>Canary ${canary}: sent by npm run admin -- doctor.</p>`,
      });
      if (res.status !== 200 || typeof res.body.email_id !== 'string') {
        throw new StepFailure(`POST /v1/send-email answered ${res.status} ${JSON.stringify(res.body)}`);
      }
      emailId = res.body.email_id;
      return `queued ${emailId}`;
    });
    if (!ok) return results;

    if (
      !(await step('send worker', async () => {
        const status = await waitFor(
          async () => {
            const a = await activity();
            const s = statusOf(a);
            if (s === 'failed' || s === 'suppressed' || s === 'bounced') throw new StepFailure(`the canary ended \`${s}\`: ${a.body.data?.error_code ?? ''} ${a.body.data?.error_message ?? a.body.data?.suppression_reason ?? ''}`.trim());
            return s === 'sent' || s === 'delivered' ? { done: s } : { last: s };
          },
          (last) =>
            last === 'queued'
              ? `the canary stayed \`queued\` for ${stepTimeoutMs / 1000} s: nothing took it from the send queue. Is the send worker running (its errors alarm, its logs), or is the message in the send DLQ?`
              : last === 'retrying'
                ? `the canary is \`retrying\`: SES refused it for now (throttled or unavailable); see the send worker's logs`
                : `the canary never reached \`sent\` (last: ${last})`,
        );
        return `SES accepted it (${status})`;
      }))
    ) {
      return results;
    }

    if (
      !(await step('ses events', async () => {
        await waitFor(
          async () => {
            const s = statusOf(await activity());
            return s === 'delivered' ? { done: s } : { last: s };
          },
          (last) =>
            `no Delivery event reached the canary within ${stepTimeoutMs / 1000} s (still \`${last}\`): check the configuration set's event destination, the SES events topic and queue, the ses-events worker and its DLQ`,
        );
        return 'delivered';
      }))
    ) {
      return results;
    }

    if (
      !(await step('activity', async () => {
        const one = await activity('?include=events');
        const types = ((one.body.data?.events ?? []) as { event_type: string }[]).map((e) => e.event_type);
        if (!types.includes('sent') || !types.includes('delivered')) {
          throw new StepFailure(`GET /v1/activity/${emailId}?include=events shows events [${types.join(', ')}], expected sent and delivered`);
        }
        await waitFor(
          async () => {
            const list = await call('GET', `/v1/activity?email=${encodeURIComponent(CANARY_RECIPIENT)}&per_page=20`);
            if (list.status !== 200) return { last: `HTTP ${list.status} ${JSON.stringify(list.body)}` };
            return ((list.body.data ?? []) as { id: string }[]).some((a) => a.id === emailId) ? { done: true } : { last: 'not listed' };
          },
          (last) => `GET /v1/activity?email=… does not list the canary (${last})`,
        );
        return 'the record, its timeline and the list agree';
      }))
    ) {
      return results;
    }

    await step('webhooks', async () => {
      if (receiver) {
        const hooks = await waitFor<WebhookReceiver['hooks']>(
          async () => {
            const got = receiver.hooks.filter((h) => h.body?.data?.activity_id === emailId || h.body?.data?.email_id === emailId);
            return got.some((h) => h.body.event === 'email.delivery') ? { done: got } : { last: got.map((h) => h.body.event).join(', ') || 'none' };
          },
          (last) => `the receiver got no email.delivery for the canary within ${stepTimeoutMs / 1000} s (got: ${last}): check the webhook-fanout and webhook-delivery workers and the webhooks DLQ`,
        );
        const bad = hooks.find((h) => h.signature !== bodySignature(secret, h.raw));
        if (bad) throw new StepFailure(`a webhook for the canary (${bad.body.event}) carries a wrong X-Svc-Signature`);
        return `${hooks.map((h) => h.body.event).join(', ')} received and signed`;
      }
      const failures = await call('GET', '/v1/webhooks/failures');
      if (failures.status !== 200) throw new StepFailure(`GET /v1/webhooks/failures answered ${failures.status} ${JSON.stringify(failures.body)}`);
      const mine = JSON.stringify(failures.body).includes(emailId);
      if (mine) throw new StepFailure('a webhook delivery of the canary failed for good: see GET /v1/webhooks/failures');
      return { skipped: 'deliveries reach your own URL (not seen from here); no failed delivery of the canary in GET /v1/webhooks/failures' };
    });
    return results;
  } finally {
    await restoreWebhook?.().catch(() => undefined);
    await receiver?.stop();
  }
}

async function webhookSecret(call: (m: string, p: string) => Promise<Answer>): Promise<string> {
  const res = await call('GET', '/v1/webhooks/secret');
  if (res.status !== 200 || typeof res.body.secret !== 'string') throw new StepFailure(`GET /v1/webhooks/secret answered ${res.status} ${JSON.stringify(res.body)}`);
  return res.body.secret;
}

/**
 * Points the project's live webhook at the receiver through the partner API and returns how to put
 * the previous URL back. `inbound_webhook_url` replaces `webhook_url` when set (part 6, rule 2), so
 * the field that is in force is the one changed.
 */
async function pointWebhookAt(
  call: (m: string, p: string, b?: unknown, key?: string) => Promise<Answer>,
  local: NonNullable<DoctorTarget['local']>,
  url: string,
): Promise<() => Promise<void>> {
  const path = `/v1/partner/projects/${local.projectId}`;
  const current = await call('GET', path, undefined, local.partnerKey);
  if (current.status !== 200) throw new StepFailure(`GET ${path} (partner key of the seed) answered ${current.status} ${JSON.stringify(current.body)}`);
  const project = (current.body.project ?? current.body.data ?? current.body) as Record<string, unknown>;
  const field = project.inbound_webhook_url ? 'inbound_webhook_url' : 'webhook_url';
  const previous = (project[field] as string | null | undefined) ?? null;
  const set = await call('PATCH', path, { [field]: url }, local.partnerKey);
  if (set.status !== 200) throw new StepFailure(`PATCH ${path} {${field}} answered ${set.status} ${JSON.stringify(set.body)}`);
  return async () => {
    await call('PATCH', path, { [field]: previous }, local.partnerKey);
  };
}

/** A loopback receiver that records every POST with its raw body and X-Svc-Signature. */
class WebhookReceiver {
  readonly hooks: { raw: string; body: Record<string, any>; signature: string }[] = [];
  private constructor(
    private readonly server: http.Server,
    readonly url: string,
  ) {}

  static async start(): Promise<WebhookReceiver> {
    let receiver: WebhookReceiver | undefined;
    const server = http.createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        const raw = Buffer.concat(chunks).toString('utf8');
        let body: Record<string, any> = {};
        try {
          body = JSON.parse(raw) as Record<string, any>;
        } catch {
          // Kept as is: a body that is not JSON matches no canary and fails the step by timeout.
        }
        receiver?.hooks.push({ raw, body, signature: String(req.headers['x-svc-signature'] ?? '') });
        res.writeHead(200, { 'content-type': 'text/plain' }).end('ok');
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    receiver = new WebhookReceiver(server, `http://127.0.0.1:${(server.address() as AddressInfo).port}/mailroom-doctor`);
    return receiver;
  }

  stop(): Promise<void> {
    this.server.closeAllConnections();
    return new Promise((resolve) => this.server.close(() => resolve()));
  }
}

/** A wrong doctor invocation (exit code 2). */
export class DoctorUsageError extends Error {}

/** The target and timeout from the flags, the environment, or the local cloud's seed file. */
export function parseDoctorArgs(argv: readonly string[], env: NodeJS.ProcessEnv): { target: DoctorTarget; stepTimeoutMs: number; json: boolean } | 'help' {
  let values: Record<string, string | boolean | undefined>;
  try {
    ({ values } = parseArgs({
      args: [...argv],
      options: {
        seed: { type: 'string' },
        'base-url': { type: 'string' },
        key: { type: 'string' },
        sender: { type: 'string' },
        timeout: { type: 'string' },
        json: { type: 'boolean' },
        help: { type: 'boolean', short: 'h' },
      },
      strict: true,
      allowPositionals: false,
    }));
  } catch (error) {
    throw new DoctorUsageError((error as Error).message);
  }
  if (values.help) return 'help';
  const timeout = values.timeout === undefined ? DEFAULT_STEP_TIMEOUT_SECONDS : Number(values.timeout);
  if (!Number.isFinite(timeout) || timeout <= 0 || timeout > 900) throw new DoctorUsageError(`--timeout must be a number of seconds above 0 (900 at most), got \`${String(values.timeout)}\``);
  const json = values.json === true;
  const baseUrl = (values['base-url'] as string | undefined) ?? env.MAILROOM_BASE_URL;
  if (baseUrl !== undefined) {
    if (values.seed !== undefined) throw new DoctorUsageError('Give either --seed (a local cloud) or --base-url (a deployed stack), not both');
    const key = (values.key as string | undefined) ?? env.MAILROOM_API_KEY;
    const sender = (values.sender as string | undefined) ?? env.MAILROOM_SENDER;
    if (!key) throw new DoctorUsageError('Missing --key <project live key> (or MAILROOM_API_KEY) for --base-url');
    if (!sender) throw new DoctorUsageError('Missing --sender <address verified for the project> (or MAILROOM_SENDER) for --base-url');
    if (!/^https?:\/\/[^\s/]+/.test(baseUrl)) throw new DoctorUsageError(`--base-url must be an http(s) URL, got \`${baseUrl}\``);
    return { target: { baseUrl: baseUrl.replace(/\/+$/, ''), key, sender }, stepTimeoutMs: timeout * 1000, json };
  }
  if (values.key !== undefined || values.sender !== undefined) throw new DoctorUsageError('--key and --sender go with --base-url');
  const seedPath = (values.seed as string | undefined) ?? '.local/seed.json';
  let seed: Record<string, unknown>;
  try {
    seed = JSON.parse(fs.readFileSync(seedPath, 'utf8')) as Record<string, unknown>;
  } catch {
    throw new DoctorUsageError(`Cannot read ${seedPath}: start the local cloud with \`npm start\`, or check a deployed stack with --base-url, --key and --sender`);
  }
  for (const field of ['base_url', 'live_key', 'sender_email', 'partner_key', 'project_id']) {
    if (typeof seed[field] !== 'string') throw new DoctorUsageError(`${seedPath} has no ${field}`);
  }
  return {
    target: {
      baseUrl: String(seed.base_url).replace(/\/+$/, ''),
      key: String(seed.live_key),
      sender: String(seed.sender_email),
      local: { partnerKey: String(seed.partner_key), projectId: String(seed.project_id) },
    },
    stepTimeoutMs: timeout * 1000,
    json,
  };
}

/** One line per step: a mark, the step, its time and what was seen. */
export function renderStep(r: StepResult): string {
  const mark = r.status === 'ok' ? 'ok  ' : r.status === 'skipped' ? 'skip' : 'FAIL';
  return `${mark} ${r.step.padEnd(11)} ${String(r.ms).padStart(6)} ms  ${r.detail}`;
}

/** `doctor`: 0 when every step held, 1 naming the step that broke, 2 for a usage error. */
export async function runDoctorCli(argv: readonly string[], env: NodeJS.ProcessEnv, io: { out(text: string): void; err(text: string): void }): Promise<number> {
  let parsed: ReturnType<typeof parseDoctorArgs>;
  try {
    parsed = parseDoctorArgs(argv, env);
  } catch (error) {
    if (!(error instanceof DoctorUsageError)) throw error;
    io.err(`${error.message}\nSee: npm run admin -- doctor --help`);
    return 2;
  }
  if (parsed === 'help') {
    io.out(DOCTOR_USAGE);
    return 2;
  }
  const { target, stepTimeoutMs, json } = parsed;
  if (!json) io.out(`Canary to ${CANARY_RECIPIENT} through ${target.baseUrl} (${target.local ? 'local cloud' : 'deployed stack'}), ${stepTimeoutMs / 1000} s per step`);
  const results = await runDoctor({ target, stepTimeoutMs, onStep: json ? undefined : (r) => io.out(renderStep(r)) });
  const failed = results.find((r) => r.status === 'failed');
  if (json) io.out(JSON.stringify({ ok: !failed, failed_step: failed?.step ?? null, steps: results }, null, 2));
  if (failed) {
    io.err(`doctor: the \`${failed.step}\` step broke: ${failed.detail}`);
    return 1;
  }
  if (!json) io.out('doctor: the pipeline works end to end');
  return 0;
}
