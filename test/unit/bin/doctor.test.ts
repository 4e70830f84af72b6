import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { DoctorUsageError, parseDoctorArgs, renderStep } from '../../../bin/doctor';

describe('doctor: where the canary goes', () => {
  const seedFile = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'doctor-unit-')), 'seed.json');
  fs.writeFileSync(seedFile, JSON.stringify({ base_url: 'http://localhost:3000/', live_key: 'mr_live_x', sender_email: 'hello@demo.mailroom.test', partner_key: 'sk_partner_x', project_id: 'p1' }));

  it('reads a local cloud from its seed file, with the partner key that lets it own the webhook for the run', () => {
    expect(parseDoctorArgs(['--seed', seedFile], {})).toEqual({
      target: { baseUrl: 'http://localhost:3000', key: 'mr_live_x', sender: 'hello@demo.mailroom.test', local: { partnerKey: 'sk_partner_x', projectId: 'p1' } },
      stepTimeoutMs: 30_000,
      json: false,
    });
  });

  it('takes a deployed stack from flags, or from MAILROOM_BASE_URL, MAILROOM_API_KEY and MAILROOM_SENDER', () => {
    const flags = parseDoctorArgs(['--base-url', 'https://x.execute-api.eu-west-1.amazonaws.com/', '--key', 'k', '--sender', 'a@b.example', '--timeout', '90'], {});
    expect(flags).toEqual({ target: { baseUrl: 'https://x.execute-api.eu-west-1.amazonaws.com', key: 'k', sender: 'a@b.example' }, stepTimeoutMs: 90_000, json: false });
    const env = parseDoctorArgs([], { MAILROOM_BASE_URL: 'https://api.example.com', MAILROOM_API_KEY: 'k', MAILROOM_SENDER: 'a@b.example' });
    expect(env).toMatchObject({ target: { baseUrl: 'https://api.example.com', key: 'k', sender: 'a@b.example' } });
  });

  it.each([
    [['--base-url', 'https://api.example.com', '--sender', 'a@b.example'], 'Missing --key <project live key> (or MAILROOM_API_KEY) for --base-url'],
    [['--base-url', 'https://api.example.com', '--key', 'k'], 'Missing --sender <address verified for the project> (or MAILROOM_SENDER) for --base-url'],
    [['--base-url', 'api.example.com', '--key', 'k', '--sender', 'a@b.example'], '--base-url must be an http(s) URL, got `api.example.com`'],
    [['--key', 'k'], '--key and --sender go with --base-url'],
    [['--timeout', '0'], '--timeout must be a number of seconds above 0 (900 at most), got `0`'],
    [['--bogus'], "Unknown option '--bogus'"],
  ])('refuses %j', (argv, message) => {
    expect(() => parseDoctorArgs(argv, {})).toThrow(DoctorUsageError);
    expect(() => parseDoctorArgs(argv, {})).toThrow(message);
  });

  it('prints each step on one line, failures marked FAIL', () => {
    expect(renderStep({ step: 'send worker', status: 'failed', detail: 'stuck', ms: 3001 })).toBe('FAIL send worker   3001 ms  stuck');
    expect(renderStep({ step: 'api', status: 'ok', detail: 'queued x', ms: 12 })).toBe('ok   api             12 ms  queued x');
  });
});
