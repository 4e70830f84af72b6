import { randomUUID } from 'node:crypto';
import { upsertLeads } from '../../../shared/audience/leads/lead-upsert';
import { listSenders } from '../../../shared/identities/domains/sender-repository';
import { createTemplate } from '../../../shared/mail-pipeline/templates/template-service';
import type { Step } from '../../../shared/marketing/automations/definition';
import { sweepAutomationDue } from '../../../shared/marketing/automations/engine/due-sweep';
import { overrideServices, services } from '../../../composition/services';
import type { Clock } from '../../../shared/platform/core/ports';
import { pauseProjectMarketing } from '../../../shared/platform/projects/project-repository';
import { eventually } from '../support/eventually';
import { putManualAutomation } from '../support/manual-automation';
import { CLOUD_TIMEOUT_MS, startTestCloud, type TestCloud } from '../support/test-cloud';

/**
 * An automation's marketing send while the reputation watch has paused the project's marketing:
 * the run waits at the send (nothing lost, nothing sent), a transactional send goes out, and once an
 * operator resumes, the held send goes out at the next wake.
 */

let cloud: TestCloud;
let templateId: string;
let senderId: string;
let offset = 0;
const clock: Clock = { now: () => new Date(Date.now() + offset) };

beforeAll(async () => {
  cloud = await startTestCloud();
  overrideServices({ clock });
  const deps = services();
  templateId = (await createTemplate(deps.db, deps.clock, cloud.seed.project_id, { name: `promo-${randomUUID()}`, subject: 'Promo', html: '<p>Sale</p>' })).id;
  senderId = (await listSenders(deps.db, cloud.seed.project_id))[0].id;
  const at = clock.now().toISOString();
  await pauseProjectMarketing(deps.db, cloud.seed.project_id, { reason: 'complaint_rate', rate: 0.0012, threshold: 0.0008, sample: 5000, since: at, at });
}, CLOUD_TIMEOUT_MS);
afterAll(() => cloud?.stop());

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

const automationWith = (steps: Step[]): Promise<string> => putManualAutomation(cloud.seed.project_id, clock.now(), steps);

async function enrolled(automationId: string): Promise<string> {
  const email = `hold-${randomUUID()}@example.com`;
  await upsertLeads(services().db, clock, cloud.seed.project_id, [{ email, data: {}, segmentIds: [] }]);
  expect((await cloud.api('POST', `/v1/automations/${automationId}/enroll`, { body: { emails: [email] } })).status).toBe(200);
  return email;
}

async function onlyRun(automationId: string, until: (run: Record<string, unknown>) => boolean): Promise<Record<string, unknown>> {
  return eventually(`a run of ${automationId} that matches`, async () => {
    const runs = (await cloud.api('GET', `/v1/automations/${automationId}/runs`)).body.data as Record<string, unknown>[];
    return runs.length === 1 && until(runs[0]) ? runs[0] : undefined;
  });
}

const activitiesOf = async (runId: string) => (await cloud.api('GET', `/v1/activity?automation_run_id=${runId}`)).body.data as Record<string, unknown>[];
const send = (id: string, emailType: 'marketing' | 'transactional'): Step => ({ id, type: 'send_email', template_id: templateId, sender_profile_id: senderId, email_type: emailType, next: null });

describe('an automation\'s sends while the project\'s marketing is paused', () => {
  it('a transactional send goes out', async () => {
    const automationId = await automationWith([send('receipt', 'transactional')]);
    await enrolled(automationId);
    const done = await onlyRun(automationId, (run) => run.state === 'completed');
    await eventually('the receipt', async () => ((await activitiesOf(String(done.id))).length === 1 ? true : undefined));
  });

  it('a marketing send waits at its step, sends nothing, and goes out after the resume', async () => {
    const automationId = await automationWith([send('promo', 'marketing')]);
    await enrolled(automationId);
    const held = await onlyRun(automationId, (run) => run.state === 'waiting');
    expect(held).toMatchObject({ step: 'promo' });
    await cloud.settled({ delayed: false });
    expect(await activitiesOf(String(held.id))).toHaveLength(0);
    const timeline = (await cloud.api('GET', `/v1/automation-runs/${String(held.id)}`)).body.data as { timeline: Record<string, any>[] };
    expect(timeline.timeline[0]).toMatchObject({ step_id: 'promo', outcome: 'waiting', detail: { held: 'marketing_paused' } });

    // Still paused at the next wake: it waits again.
    offset += 20 * 60_000;
    await sweepAutomationDue(services());
    await cloud.settled({ delayed: false });
    expect(await activitiesOf(String(held.id))).toHaveLength(0);

    const resumed = await cloud.api('POST', `/v1/partner/projects/${cloud.seed.project_id}/marketing/resume`, { key: cloud.seed.partner_key });
    expect(resumed.status).toBe(200);
    await sleep(5_100); // the engine's project cache
    offset += 20 * 60_000;
    await sweepAutomationDue(services());
    const done = await onlyRun(automationId, (run) => run.state === 'completed');
    const mails = await eventually('the held promo', async () => {
      const found = await activitiesOf(String(done.id));
      return found.length === 1 ? found : undefined;
    });
    expect(mails[0]).toMatchObject({ automation_run_id: done.id });
  });
});
