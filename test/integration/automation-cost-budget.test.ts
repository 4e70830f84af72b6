import budget from '../../bench/budget.json';
import { measureAutomation } from '../../bench/automation';
import { DEFAULT_MEMORY_MB } from '../../lib/project-function';
import { CLOUD_TIMEOUT_MS, startTestCloud, type TestCloud } from './support/test-cloud';

/**
 * The automation benchmark's small variant: 100 leads imported through the API into a static
 * segment whose automation sends a mail, waits and sends another, run by the real lead-import
 * worker, engine, send worker, sweep and SES events, measured as `npm run bench` measures its
 * larger runs. The wait is 20 minutes and the clock jumps over it (the sweep alone wakes the runs,
 * as it does any wait beyond SQS's 15 minutes), so it costs no time here; the figures are per run,
 * so 100 leads give them as 1,000 do. A change that adds write units
 * or requests per run fails here until bench/budget.json is raised on purpose (and docs/cost.md says why).
 */

jest.setTimeout(180_000);

let cloud: TestCloud;

beforeAll(async () => {
  // No workers and no schedules: the benchmark runs each itself, metered.
  cloud = await startTestCloud({ workers: false, schedules: false });
}, CLOUD_TIMEOUT_MS);
afterAll(async () => {
  await cloud?.stop();
});

describe('what an automation run costs', () => {
  test('a send, wait, send journey over 100 imported leads mails each lead exactly twice, within the budgets per run', async () => {
    const result = await measureAutomation(cloud, { leads: 100, memoryMb: DEFAULT_MEMORY_MB, jumpWait: true });
    expect(result.runs_completed).toBe(100);
    expect(result.outbox_mails).toBe(200);
    expect(result.leads_not_mailed_twice).toBe(0);
    expect(result.event_publishes_per_run).toBe(2);
    expect(result.write_units_per_run).toBeLessThanOrEqual(budget.automation.write_units_per_run);
    expect(result.dynamodb_requests_per_run).toBeLessThanOrEqual(budget.automation.dynamodb_requests_per_run);
    expect(result.sqs_requests_per_run).toBeLessThanOrEqual(budget.automation.sqs_requests_per_run);
  });
});
