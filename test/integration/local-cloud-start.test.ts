import { execFile, spawn } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { startLocalCloud } from '../../local/cloud';
import { overrideServices, services } from '../../composition/services';
import { updateProjectFields } from '../../shared/platform/projects/project-repository';
import { projectKey } from '../../shared/platform/store/keys';
import { startTestCloud } from './support/test-cloud';
import { freePort } from '../../local/free-port';
import type { Seed } from '../../local/seed';

const ROOT = path.resolve(__dirname, '../..');
const CLIENT = path.join(ROOT, 'clients/typescript');
const TSX = path.join(ROOT, 'node_modules/.bin/tsx');
const run = promisify(execFile);
// What a shell would give `npm start`: this process's environment before any cloud here set its own.
const USER_ENV = { ...process.env };

/** `npm start` running as a child process: the API's URL and the seed its banner printed. */
interface NpmStart {
  readonly baseUrl: string;
  readonly seed: Pick<Seed, 'project_id' | 'live_key' | 'test_key' | 'partner_key' | 'sender_email'>;
  stop(): Promise<void>;
}

/**
 * Runs `npm start` (free ports, its data in `dataDir`) and waits for its banner. Stopping sends
 * SIGTERM, as Ctrl-C would, to its process group (npm, tsx, node) and waits for it to exit.
 */
async function npmStart(dataDir: string): Promise<NpmStart> {
  const ports = { PORT: '0', DYNAMODB_PORT: '0', SQS_PORT: '0', SES_PORT: '0', S3_PORT: '0' };
  const child = spawn('npm', ['start'], { cwd: ROOT, env: { ...USER_ENV, ...ports, LOCAL_DATA_DIR: dataDir }, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stdout.on('data', (c: Buffer) => (output += c.toString('utf8')));
  child.stderr.on('data', (c: Buffer) => (output += c.toString('utf8')));
  // npm exits at the signal; the cloud's node process stops its emulators first: done when the whole group is gone.
  const groupAlive = () => {
    try {
      process.kill(-child.pid!, 0);
      return true;
    } catch {
      return false;
    }
  };
  const stop = async () => {
    if (!groupAlive()) return;
    process.kill(-child.pid!, 'SIGTERM');
    for (const deadline = Date.now() + 30_000; groupAlive(); await new Promise((r) => setTimeout(r, 100))) {
      if (Date.now() > deadline) process.kill(-child.pid!, 'SIGKILL');
    }
  };
  const deadline = Date.now() + 150_000;
  while (!output.includes('Press Ctrl-C to stop.')) {
    if (child.exitCode !== null || Date.now() > deadline) {
      await stop();
      throw new Error(`npm start did not come up:\n${output}`);
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  const line = (label: string) => new RegExp(`^\\s+${label}\\s+(\\S+)`, 'm').exec(output)?.[1] ?? '';
  return {
    baseUrl: line('API'),
    seed: { project_id: line('Project'), live_key: line('Live key'), test_key: line('Test key'), partner_key: line('Partner key'), sender_email: line('Sender') },
    stop,
  };
}

/** A project that uses the built client package: the example, type-checked; the files its program read. */
interface Consumer {
  readonly dir: string;
  readonly files: string[];
  readonly typeErrors: string[];
}

/**
 * Builds the client package (its build script: clients/typescript/dist), then makes a project that
 * uses it as a consumer would — node_modules/@mailroom/client linked to the package, so its
 * package.json resolves the import to dist/ — with the first-mail example, and type-checks it.
 */
async function consumerOfTheBuiltClient(): Promise<Consumer> {
  await run('npm', ['run', 'build', '--workspace', '@mailroom/client'], { cwd: ROOT, env: USER_ENV });
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'mailroom-consumer-'));
  for (const [link, target] of [
    ['node_modules/@mailroom/client', CLIENT],
    ['node_modules/@types/node', path.join(ROOT, 'node_modules/@types/node')],
  ]) {
    fs.mkdirSync(path.dirname(path.join(dir, link)), { recursive: true });
    fs.symlinkSync(target, path.join(dir, link), 'dir');
  }
  fs.copyFileSync(path.join(CLIENT, 'examples/first-mail.ts'), path.join(dir, 'first-mail.ts'));
  fs.writeFileSync(path.join(dir, 'package.json'), JSON.stringify({ name: 'first-mail', private: true, type: 'commonjs' }));
  const compilerOptions = { target: 'ES2022', module: 'nodenext', moduleResolution: 'nodenext', strict: true, types: ['node'], noEmit: true };
  fs.writeFileSync(path.join(dir, 'tsconfig.json'), JSON.stringify({ compilerOptions, files: ['first-mail.ts'] }));
  const tsc = await run(process.execPath, [require.resolve('typescript/bin/tsc'), '-p', dir, '--listFiles'], { cwd: dir }).catch((e: { stdout: string }) => e);
  const lines = tsc.stdout.split('\n').filter(Boolean);
  return { dir, files: lines.filter((l) => path.isAbsolute(l)).map((f) => path.resolve(f)), typeErrors: lines.filter((l) => /error TS\d+/.test(l)) };
}

/** Listens on a port of 127.0.0.1 and 0.0.0.0 alike (as another program might), hanging up on every caller. */
function occupy(port: number): Promise<net.Server> {
  return new Promise((resolve, reject) => {
    const server = net.createServer((socket) => socket.destroy());
    server.once('error', reject);
    server.listen(port, '0.0.0.0', () => resolve(server));
  });
}

/** Whether a port can be listened on again (nothing kept it open). */
function isFree(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const server = net.createServer();
    server.once('error', () => resolve(false));
    server.listen(port, '127.0.0.1', () => server.close(() => resolve(true)));
  });
}

describe('starting the local cloud', () => {
  test('when one emulator cannot start, the ones that did are stopped and the start fails with the reason', async () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'mailroom-start-'));
    const taken = await occupy(await freePort());
    const port = (taken.address() as net.AddressInfo).port;
    const [sqs, ses, s3] = [await freePort(), await freePort(), await freePort()];
    try {
      await expect(startLocalCloud({ dataDir, persist: false, ports: { api: 0, dynamodb: port, sqs, ses, s3 } })).rejects.toThrow(
        `DynamoDB Local did not come up on port ${port}`,
      );
      expect(await Promise.all([isFree(sqs), isFree(ses), isFree(s3)])).toEqual([true, true, true]);
    } finally {
      await new Promise((resolve) => taken.close(resolve));
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
  });

  test('a second cloud in the same process uses its own emulators, even after a caller restored the first one\'s services as overrides', async () => {
    const first = await startTestCloud({ workers: false });
    // What the benchmarks do around each metered step: replace services, then put the originals back.
    overrideServices(services());
    await first.stop();
    const second = await startTestCloud({ workers: false });
    try {
      const deps = services();
      // The second cloud's seeded project is in the table the services reach.
      const seeded = await deps.db.doc.send(new GetCommand({ TableName: deps.db.tableName, Key: projectKey(second.seed.project_id) }));
      expect(seeded.Item?.id ?? seeded.Item?.project_id).toBe(second.seed.project_id);
    } finally {
      await second.stop();
    }
  }, 120_000);

  describe('npm start, as a process, on the data of an earlier run but no seed file', () => {
    // One `npm start` serves both tests: a start of the local cloud is the slow part of each.
    let dataDir: string;
    let earlier: Seed;
    let started: NpmStart | undefined;
    let consumer: Promise<Consumer>;
    beforeAll(async () => {
      // The client's build and a consumer's type check of the example run while the clouds start.
      consumer = consumerOfTheBuiltClient();
      consumer.catch(() => undefined);
      dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'mailroom-reseed-'));
      const first = await startLocalCloud({ dataDir, persist: true, ports: { api: 0, dynamodb: 0, sqs: 0, ses: 0, s3: 0 }, workers: false, quickStart: true });
      earlier = first.seed;
      await first.stop();
      fs.rmSync(path.join(dataDir, 'seed.json'));
      started = await npmStart(dataDir);
    }, 180_000);
    afterAll(async () => {
      await started?.stop();
      const dir = await consumer.then((c) => c.dir).catch(() => undefined);
      for (const folder of [dataDir, dir]) if (folder) fs.rmSync(folder, { recursive: true, force: true });
    }, 60_000);

    test('comes up with the same demo project, new keys, and the seed file written again', async () => {
      const { seed, baseUrl } = started!;
      const written = JSON.parse(fs.readFileSync(path.join(dataDir, 'seed.json'), 'utf8')) as Seed;
      expect(written).toMatchObject({ project_id: earlier.project_id, organization_id: earlier.organization_id, sender_email: earlier.sender_email });
      expect(written.live_key).not.toBe(earlier.live_key);
      // The banner printed what the seed file holds.
      expect(written).toMatchObject(seed);
      // The new keys work; the demo domain is still verified for the project.
      const domains = await fetch(`${baseUrl}/domains/health`, { headers: { authorization: `Bearer ${seed.live_key}` } });
      expect(domains.status).toBe(200);
      expect(JSON.stringify(await domains.json())).toContain('demo.mailroom.test');
      const projects = await fetch(`${baseUrl}/v1/partner/projects`, { headers: { authorization: `Bearer ${seed.partner_key}` } });
      expect(projects.status).toBe(200);
    });

    test('runs the typed first-mail example against it, type-checked against the built client package as a consumer installs it; it reads a current_status', async () => {
      const { dir, files, typeErrors } = await consumer;
      expect(typeErrors).toEqual([]);
      // The example's types came from the build (dist/*.d.ts), not from the client's source.
      expect(files).toEqual(expect.arrayContaining([path.join(CLIENT, 'dist/index.d.ts'), path.join(CLIENT, 'dist/schema.d.ts')]));
      expect(files.filter((f) => f.startsWith(path.join(CLIENT, 'src')))).toEqual([]);
      // The command line of the example (clients/typescript/README.md), with the variables it names.
      const { seed, baseUrl } = started!;
      const env = { ...USER_ENV, MAILROOM_URL: baseUrl, MAILROOM_API_KEY: seed.live_key, MAILROOM_FROM: seed.sender_email, MAILROOM_TO: 'ada@example.com' };
      const { stdout } = await run(TSX, ['first-mail.ts'], { cwd: dir, env, timeout: 60_000 });
      expect(stdout).toMatch(/emailId: '[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}'/);
      expect(/currentStatus: '(\w+)'/.exec(stdout)?.[1]).toMatch(/^(queued|sent|delivered)$/);
    }, 60_000);
  });

  test('data whose demo project cannot be reused stops the start with one line on how to start fresh', async () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'mailroom-reseed-'));
    const ports = { api: 0, dynamodb: 0, sqs: 0, ses: 0, s3: 0 };
    try {
      const first = await startLocalCloud({ dataDir, persist: true, ports, workers: false, quickStart: true });
      await updateProjectFields(services().db, first.seed.project_id, { disabled_at: new Date().toISOString() });
      await first.stop();
      fs.rmSync(path.join(dataDir, 'seed.json'));
      const failed = startLocalCloud({ dataDir, persist: true, ports, workers: false, quickStart: true });
      await expect(failed).rejects.toThrow(`to start fresh, stop Mailroom, delete ${path.resolve(dataDir)} and run npm start again`);
      await expect(failed.catch((e: Error) => e.message)).resolves.not.toContain('\n');
    } finally {
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
  }, 180_000);
});
