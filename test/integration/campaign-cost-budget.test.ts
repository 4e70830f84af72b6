import budget from '../../bench/budget.json';
import { measureCampaign } from '../../bench/campaign';
import { DEFAULT_MEMORY_MB } from '../../lib/project-function';
import { CLOUD_TIMEOUT_MS, startTestCloud, type TestCloud } from './support/test-cloud';

/**
 * The campaign benchmark's small variant (issue 17): 300 imported leads, one campaign to all of
 * them through the API, the engine, the fan-out, the batch-send worker and the SES events, measured
 * as `npm run bench` measures its 100,000. A change that adds write units per recipient fails here
 * until bench/budget.json is raised on purpose (and docs/cost.md says why).
 */

jest.setTimeout(180_000);

let cloud: TestCloud;

beforeAll(async () => {
  cloud = await startTestCloud({ workers: false });
}, CLOUD_TIMEOUT_MS);
afterAll(async () => {
  await cloud?.stop();
});

describe('what a campaign recipient costs', () => {
  test('a 300-recipient campaign reaches the outbox once per lead, within the write-unit budget through delivered', async () => {
    const result = await measureCampaign(cloud, { recipients: 300, memoryMb: DEFAULT_MEMORY_MB });
    expect(result.outbox_mails).toBe(300);
    expect(result.outbox_duplicates).toBe(0);
    expect(result.event_publishes_per_recipient).toBe(1);
    expect(result.write_units_per_recipient).toBeLessThanOrEqual(budget.campaign.write_units_per_recipient);
  });
});
