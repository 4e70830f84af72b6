import { execFile } from 'node:child_process';
import path from 'node:path';
import { freePort } from '../../local/free-port';
import { getOrganization, listPartnerKeys } from '../../shared/platform/organizations/organization-repository';
import { services } from '../../composition/services';
import { getProject } from '../../shared/platform/projects/project-repository';
import { monthOf } from '../../shared/mail-pipeline/quota/monthly-quota';
import { reserveSend } from '../../shared/mail-pipeline/quota/usage-repository';
import { CLOUD_TIMEOUT_MS, startTestCloud, type TestCloud } from './support/test-cloud';

// Each test starts the CLI (tsx) a few times over; jest ignores the testTimeout of a project config.
jest.setTimeout(30_000);

const ROOT = path.resolve(__dirname, '../..');
const TSX = path.join(ROOT, 'node_modules/.bin/tsx');

interface Run {
  code: number;
  stdout: string;
  stderr: string;
}

let cloud: TestCloud;
/** The environment a shell would have after pointing the CLI at the private cloud. */
let cloudEnv: NodeJS.ProcessEnv;

/** Runs `tsx bin/admin.ts ...` as a child process, as `npm run admin` does. */
function admin(args: string[], env: NodeJS.ProcessEnv = cloudEnv): Promise<Run> {
  return new Promise((resolve) => {
    execFile(TSX, ['bin/admin.ts', ...args], { cwd: ROOT, env, timeout: 30_000 }, (error, stdout, stderr) => {
      const code = error ? (typeof error.code === 'number' ? error.code : 1) : 0;
      resolve({ code, stdout, stderr });
    });
  });
}

/** Runs a command that must succeed with --json and returns its parsed output. */
async function adminJson<T = Record<string, unknown>>(args: string[]): Promise<T> {
  const run = await admin([...args, '--json']);
  if (run.code !== 0) throw new Error(`admin ${args.join(' ')} exited ${run.code}: ${run.stderr}`);
  return JSON.parse(run.stdout) as T;
}

function whoami(key: string) {
  return cloud.api('GET', '/v1/partner/whoami', { key });
}

const baseEnv = (): NodeJS.ProcessEnv => ({
  PATH: process.env.PATH,
  HOME: process.env.HOME,
  AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: 'true',
  // Keep the developer's own AWS configuration out of the picture.
  AWS_CONFIG_FILE: path.join(ROOT, '.no-aws-config'),
  AWS_SHARED_CREDENTIALS_FILE: path.join(ROOT, '.no-aws-credentials'),
});

beforeAll(async () => {
  // `--local` reaches the table named `mailroom`, the local cloud's default.
  cloud = await startTestCloud({ workers: false, tableName: 'mailroom' });
  cloudEnv = {
    ...baseEnv(),
    AWS_ENDPOINT_URL_DYNAMODB: process.env.AWS_ENDPOINT_URL_DYNAMODB,
    TABLE_NAME: process.env.TABLE_NAME,
    AWS_ACCESS_KEY_ID: process.env.AWS_ACCESS_KEY_ID,
    AWS_SECRET_ACCESS_KEY: process.env.AWS_SECRET_ACCESS_KEY,
    AWS_REGION: process.env.AWS_REGION,
  };
}, CLOUD_TIMEOUT_MS);

afterAll(async () => {
  await cloud?.stop();
});

describe('npm run admin against a local cloud', () => {
  let orgId: string;
  let firstKey: string;
  let firstKeyId: string;

  it('creates an organization with a working partner key and a root project outside the quota', async () => {
    const out = await adminJson<{
      organization: { id: string; name: string; max_projects: number | null; active_projects: number; root_project_id: string };
      partner_key: { key_id: string; key: string };
      root_project: { id: string; live_key: string; test_key: string };
    }>(['org', 'create', '--name', 'Acme Partners', '--max-projects', '3', '--root-project', 'Acme root']);
    orgId = out.organization.id;
    firstKey = out.partner_key.key;
    firstKeyId = out.partner_key.key_id;
    expect(orgId).toMatch(/^[0-9a-f-]{36}$/);
    expect(out.organization).toMatchObject({ name: 'Acme Partners', max_projects: 3, active_projects: 0, root_project_id: out.root_project.id });
    expect(firstKey).toMatch(/^sk_partner_/);
    expect(firstKeyId).toMatch(/^pk_/);
    expect(out.root_project.live_key).toMatch(/^sk_live_/);
    expect(out.root_project.test_key).toMatch(/^sk_test_/);

    const me = await whoami(firstKey);
    expect(me.status).toBe(200);
    expect(me.body.organization).toMatchObject({ id: orgId, name: 'Acme Partners', root_project_id: out.root_project.id });
    // The root project does not count against the quota.
    expect(me.body.partner).toMatchObject({ max_projects: 3, active_projects: 0 });

    // The root project's live key is a working project key: it is let in, and told the activity is not its.
    const activity = await cloud.api('GET', '/v1/activity/00000000-0000-4000-8000-000000000000', { key: out.root_project.live_key });
    expect(activity.status).toBe(404);
    expect(activity.body).toEqual({ error: 'Activity not found' });
  });

  it('sets max_projects, to a number and back to unlimited', async () => {
    expect(await adminJson(['quota', 'set', '--org', orgId, '--max', '7'])).toEqual({ organization_id: orgId, max_projects: 7, active_projects: 0 });
    expect((await whoami(firstKey)).body.partner).toMatchObject({ max_projects: 7 });
    expect((await getOrganization(services().db, orgId))?.max_projects).toBe(7);

    await adminJson(['quota', 'set', '--org', orgId, '--max', 'unlimited']);
    expect((await whoami(firstKey)).body.partner).toMatchObject({ max_projects: null });
  });

  it('issues a second working key, lists both, and revokes it at once', async () => {
    const issued = await adminJson<{ organization_id: string; key_id: string; key: string }>(['key', 'issue', '--org', orgId]);
    expect(issued.organization_id).toBe(orgId);
    expect(issued.key_id).not.toBe(firstKeyId);
    const second = await whoami(issued.key);
    expect(second.status).toBe(200);
    expect(second.body.organization).toMatchObject({ id: orgId });

    const shown = await adminJson<{ organization: { id: string }; partner_keys: { key_id: string; created_at: string }[] }>(['org', 'show', '--org', orgId]);
    expect(shown.organization.id).toBe(orgId);
    expect(shown.partner_keys.map((k) => k.key_id).sort()).toEqual([firstKeyId, issued.key_id].sort());
    expect(JSON.stringify(shown)).not.toMatch(/hash|sk_partner_/);
    const listed = await adminJson<{ partner_keys: { key_id: string }[] }>(['key', 'list', '--org', orgId]);
    expect(listed.partner_keys.map((k) => k.key_id).sort()).toEqual([firstKeyId, issued.key_id].sort());

    expect(await adminJson(['key', 'revoke', '--org', orgId, '--key-id', issued.key_id])).toEqual({ organization_id: orgId, key_id: issued.key_id, revoked: true });
    expect((await whoami(issued.key)).status).toBe(401);
    expect((await whoami(firstKey)).status).toBe(200);
    expect((await listPartnerKeys(services().db, orgId)).map((k) => k.key_id)).toEqual([firstKeyId]);
  });

  it('prints short text without --json', async () => {
    const run = await admin(['org', 'show', '--org', orgId]);
    expect(run.code).toBe(0);
    expect(run.stdout).toContain(`Organization  ${orgId}`);
    expect(run.stdout).toContain('Max projects  unlimited (0 active)');
    expect(run.stdout).toContain(`Partner keys  ${firstKeyId}`);
  });

  it('exits 1 with the message only for an unknown organization or key', async () => {
    const missing = await admin(['key', 'issue', '--org', '00000000-0000-4000-8000-000000000000']);
    expect(missing).toMatchObject({ code: 1, stdout: '', stderr: 'Organization 00000000-0000-4000-8000-000000000000 not found\n' });
    const unknownKey = await admin(['key', 'revoke', '--org', orgId, '--key-id', 'pk_000000000000']);
    expect(unknownKey.code).toBe(1);
    expect(unknownKey.stderr).toBe(`Partner key pk_000000000000 not found in organization ${orgId}\n`);
  });

  it('reaches the same table with --local on DYNAMODB_PORT, without any AWS settings', async () => {
    const port = new URL(cloudEnv.AWS_ENDPOINT_URL_DYNAMODB as string).port;
    const run = await admin(['org', 'show', '--org', orgId, '--local', '--json'], { ...baseEnv(), DYNAMODB_PORT: port });
    expect(run.code).toBe(0);
    expect(JSON.parse(run.stdout).organization.id).toBe(orgId);
  });

  it('says so when no local cloud answers', async () => {
    const run = await admin(['org', 'show', '--org', orgId], { ...baseEnv(), DYNAMODB_PORT: String(await freePort()) });
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(/^Nothing answers at http:\/\/localhost:\d+ \(DynamoDB Local\)\. Is `npm start` running\?\n$/);
  });

  it("sets a project's monthly send quota, shows this month's count, and puts it back on the default", async () => {
    const projectId = cloud.seed.project_id;
    const month = monthOf(new Date());
    expect(await adminJson(['project', 'quota', '--project', projectId, '--monthly', '2'])).toEqual({ project_id: projectId, monthly_quota: 2, month, sent_this_month: 0 });
    expect((await getProject(services().db, projectId))?.monthly_quota).toBe(2);

    await reserveSend(services().db, projectId, month, 2, new Date());
    const shown = await admin(['project', 'quota', '--project', projectId]);
    expect(shown.code).toBe(0);
    expect(shown.stdout).toContain('Monthly quota 2');
    expect(shown.stdout).toContain(`Sent ${month}  1`);

    expect(await adminJson(['project', 'quota', '--project', projectId, '--monthly', 'default'])).toMatchObject({ monthly_quota: null, sent_this_month: 1 });
    expect(await getProject(services().db, projectId)).not.toHaveProperty('monthly_quota');
  });

  it('exits 1 for an unknown project', async () => {
    const missing = await admin(['project', 'quota', '--project', '00000000-0000-4000-8000-000000000000', '--monthly', 'unlimited']);
    expect(missing).toMatchObject({ code: 1, stdout: '', stderr: 'Project 00000000-0000-4000-8000-000000000000 not found\n' });
  });

  it('exits 2 on a usage error, naming the flag', async () => {
    const run = await admin(['quota', 'set', '--org', orgId, '--max', 'lots']);
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/^--max must be a whole number/);
  });
});
