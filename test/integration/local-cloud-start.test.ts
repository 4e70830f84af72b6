import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { startLocalCloud } from '../../local/cloud';
import { overrideServices, services } from '../../composition/services';
import { updateProjectFields } from '../../shared/platform/projects/project-repository';
import { projectKey } from '../../shared/platform/store/keys';
import { startTestCloud } from './support/test-cloud';
import { freePort } from '../../local/free-port';

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

  test('with the data of an earlier run but no seed file, the start comes up with the same demo project, new keys, and the seed file written again', async () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'mailroom-reseed-'));
    const ports = { api: 0, dynamodb: 0, sqs: 0, ses: 0, s3: 0 };
    const seedFile = path.join(dataDir, 'seed.json');
    try {
      const first = await startLocalCloud({ dataDir, persist: true, ports, workers: false, quickStart: true });
      const earlier = first.seed;
      await first.stop();
      fs.rmSync(seedFile);

      const second = await startLocalCloud({ dataDir, persist: true, ports, workers: false, quickStart: true });
      try {
        expect(second.seed).toMatchObject({ project_id: earlier.project_id, organization_id: earlier.organization_id, sender_email: earlier.sender_email });
        expect(second.seed.live_key).not.toBe(earlier.live_key);
        expect(JSON.parse(fs.readFileSync(seedFile, 'utf8'))).toEqual(second.seed);
        // The new keys work; the demo domain is still verified for the project.
        const domains = await fetch(`${second.baseUrl}/domains/health`, { headers: { authorization: `Bearer ${second.seed.live_key}` } });
        expect(domains.status).toBe(200);
        expect(JSON.stringify(await domains.json())).toContain('demo.mailroom.test');
        const projects = await fetch(`${second.baseUrl}/v1/partner/projects`, { headers: { authorization: `Bearer ${second.seed.partner_key}` } });
        expect(projects.status).toBe(200);
      } finally {
        await second.stop();
      }
    } finally {
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
  }, 180_000);

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
