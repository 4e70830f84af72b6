import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { Metrics } from '@aws-lambda-powertools/metrics';
import { CLOUD_TIMEOUT_MS, sendBody, startTestCloud, type TestCloud } from './support/test-cloud';

/**
 * The workers' mail metrics, seen through the Powertools calls they make (the lines themselves are
 * silenced in tests): what each project's line would carry, per worker invocation.
 */
let cloud: TestCloud;
let files: http.Server;
let filesUrl = '';
const added: { projectId?: string; name: string; value: number }[] = [];
let currentProject: string | undefined;

beforeAll(async () => {
  // Recorded, then passed on, so the metrics behave as in Lambda (their output is silenced in tests).
  const addDimension = Metrics.prototype.addDimension;
  const addMetric = Metrics.prototype.addMetric;
  jest.spyOn(Metrics.prototype, 'addDimension').mockImplementation(function (this: Metrics, name: string, value: string) {
    if (name === 'project_id') currentProject = value;
    return addDimension.call(this, name, value);
  });
  jest.spyOn(Metrics.prototype, 'addMetric').mockImplementation(function (this: Metrics, name, unit, value) {
    added.push({ projectId: currentProject, name, value });
    return addMetric.call(this, name, unit, value);
  });
  files = http.createServer((_req, res) => res.writeHead(404).end());
  await new Promise<void>((resolve) => files.listen(0, '127.0.0.1', resolve));
  filesUrl = `http://127.0.0.1:${(files.address() as AddressInfo).port}`;
  cloud = await startTestCloud();
}, CLOUD_TIMEOUT_MS);

afterAll(async () => {
  jest.restoreAllMocks();
  await cloud?.stop();
  await new Promise((resolve) => files?.close(resolve));
});

const total = (projectId: string, name: string) => added.filter((a) => a.projectId === projectId && a.name === name).reduce((n, a) => n + a.value, 0);

/** Polls the activity until it has `status`, for up to 30 s (the machine may be busy). */
async function waitForStatus(id: string, status: string): Promise<void> {
  const deadline = Date.now() + 30_000;
  for (;;) {
    const res = await cloud.api('GET', `/v1/activity/${id}`);
    const current = (res.body.data as { current_status?: string } | undefined)?.current_status;
    if (current === status) return;
    if (Date.now() > deadline) throw new Error(`Activity ${id} is ${current}, expected ${status}`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

describe('mail metrics from the send and ses-events workers', () => {
  it("count each project's sends, failures, hard bounces and complaints once", async () => {
    const project = cloud.seed.project_id;
    const send = (overrides: Record<string, unknown>) => cloud.api('POST', '/v1/send-email', { body: sendBody(cloud, overrides) });
    const ids = await Promise.all([
      send({ recipient_email: 'success@simulator.amazonses.com' }),
      send({ recipient_email: 'bounce@simulator.amazonses.com' }),
      send({ recipient_email: 'complaint@simulator.amazonses.com' }),
      send({ attachments: [{ filename: 'gone.pdf', url: `${filesUrl}/missing.pdf` }] }),
    ]);
    // A complaint follows the delivery: wait for each mail's own last state.
    const expected = ['delivered', 'bounced', 'complained', 'failed'];
    await Promise.all(ids.map((r, i) => waitForStatus(r.body.email_id as string, expected[i])));
    await new Promise((r) => setTimeout(r, 500)); // the invocations' finish steps run after the records settle
    expect({ sent: total(project, 'Sent'), failed: total(project, 'Failed'), bounced: total(project, 'Bounced'), complained: total(project, 'Complained') }).toEqual({
      sent: 3,
      failed: 1,
      bounced: 1,
      complained: 1,
    });
  }, 90_000);
});
