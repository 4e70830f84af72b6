import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { runDoctorCli } from '../../bin/doctor';
import { workers, type WorkerName } from '../../shared/platform/core/routes';
import { CLOUD_TIMEOUT_MS, startTestCloud, type TestCloud } from './support/test-cloud';

/** Runs `npm run admin -- doctor --seed <the cloud's seed>` in process; returns its exit code and output. */
async function doctor(cloud: TestCloud, extra: string[] = []): Promise<{ code: number; out: string; err: string }> {
  const seedFile = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'doctor-')), 'seed.json');
  fs.writeFileSync(seedFile, JSON.stringify(cloud.seed));
  const out: string[] = [];
  const err: string[] = [];
  const code = await runDoctorCli(['--seed', seedFile, ...extra], {}, { out: (t) => out.push(t), err: (t) => err.push(t) });
  return { code, out: out.join('\n'), err: err.join('\n') };
}

async function partnerProject(cloud: TestCloud): Promise<Record<string, unknown>> {
  const res = await cloud.api('GET', `/v1/partner/projects/${cloud.seed.project_id}`, { key: cloud.seed.partner_key });
  return res.body.project as Record<string, unknown>;
}

describe('doctor against a whole local cloud', () => {
  let cloud: TestCloud;
  beforeAll(async () => {
    cloud = await startTestCloud();
  }, CLOUD_TIMEOUT_MS);
  afterAll(() => cloud?.stop());

  it('follows the canary through api, send worker, SES events, activity and webhooks, and exits 0', async () => {
    const { code, out, err } = await doctor(cloud, ['--timeout', '60']);
    expect(err).toBe('');
    expect(code).toBe(0);
    for (const step of ['api', 'send worker', 'ses events', 'activity', 'webhooks']) expect(out).toMatch(new RegExp(`^ok\\s+${step} `, 'm'));
    expect(out).toContain('email.delivery');
    expect(out).toContain('doctor: the pipeline works end to end');
    const mails = await cloud.outbox();
    expect(mails.some((m) => m.destination.to.includes('success@simulator.amazonses.com') && m.subject.startsWith('Mailroom doctor canary'))).toBe(true);
  }, 240_000);

  it("puts the project's webhook URL back as it was", async () => {
    expect((await partnerProject(cloud)).webhook_url ?? null).toBeNull();
  });

  it('prints the steps as JSON with --json', async () => {
    const { code, out } = await doctor(cloud, ['--timeout', '60', '--json']);
    expect(code).toBe(0);
    const report = JSON.parse(out);
    expect(report).toMatchObject({ ok: true, failed_step: null });
    expect(report.steps.map((s: { step: string; status: string }) => [s.step, s.status])).toEqual([
      ['api', 'ok'],
      ['send worker', 'ok'],
      ['ses events', 'ok'],
      ['activity', 'ok'],
      ['webhooks', 'ok'],
    ]);
  }, 240_000);
});

describe('doctor against a local cloud whose send worker is not running', () => {
  let cloud: TestCloud;
  beforeAll(async () => {
    const running = (Object.keys(workers) as WorkerName[]).filter((w) => w !== 'send-worker');
    cloud = await startTestCloud({ workers: running });
  }, CLOUD_TIMEOUT_MS);
  afterAll(() => cloud?.stop());

  it('names the send worker step, says what it saw, and exits 1 after the step timeout', async () => {
    const started = Date.now();
    const { code, out, err } = await doctor(cloud, ['--timeout', '3']);
    expect(code).toBe(1);
    expect(out).toMatch(/^ok\s+api /m);
    expect(out).toMatch(/^FAIL send worker /m);
    expect(out).not.toMatch(/ses events/);
    expect(err).toContain('doctor: the `send worker` step broke: the canary stayed `queued` for 3 s: nothing took it from the send queue.');
    expect(Date.now() - started).toBeLessThan(30_000);
    // The webhook URL is put back even when a step broke.
    expect((await partnerProject(cloud)).webhook_url ?? null).toBeNull();
  }, 60_000);
});

describe('doctor against a local cloud whose SES events worker is not running', () => {
  let cloud: TestCloud;
  beforeAll(async () => {
    const running = (Object.keys(workers) as WorkerName[]).filter((w) => w !== 'ses-events');
    cloud = await startTestCloud({ workers: running });
  }, CLOUD_TIMEOUT_MS);
  afterAll(() => cloud?.stop());

  it('passes the send worker and names the ses events step', async () => {
    const { code, out, err } = await doctor(cloud, ['--timeout', '3']);
    expect(code).toBe(1);
    expect(out).toMatch(/^ok\s+send worker /m);
    expect(out).toMatch(/^FAIL ses events /m);
    expect(err).toContain('doctor: the `ses events` step broke: no Delivery event reached the canary within 3 s (still `sent`)');
  }, 60_000);
});

describe('doctor without a local cloud', () => {
  it('says how to start one when there is no seed file, with exit code 2', async () => {
    const err: string[] = [];
    const code = await runDoctorCli(['--seed', '/nonexistent/seed.json'], {}, { out: () => undefined, err: (t) => err.push(t) });
    expect(code).toBe(2);
    expect(err.join('\n')).toContain('Cannot read /nonexistent/seed.json: start the local cloud with `npm start`');
  });

  it('names the api step when nothing answers at the base URL', async () => {
    const err: string[] = [];
    const code = await runDoctorCli(['--base-url', 'http://127.0.0.1:9', '--key', 'k', '--sender', 'a@b.example', '--timeout', '2'], {}, { out: () => undefined, err: (t) => err.push(t) });
    expect(code).toBe(1);
    expect(err.join('\n')).toMatch(/^doctor: the `api` step broke: no answer from http:\/\/127\.0\.0\.1:9\/v1\/send-email/);
  });
});
