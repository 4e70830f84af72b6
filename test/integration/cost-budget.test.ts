import budget from '../../bench/budget.json';
import { measureSingleSends } from '../../bench/measure';
import { DEFAULT_MEMORY_MB } from '../../lib/project-function';
import { CLOUD_TIMEOUT_MS, startTestCloud, type TestCloud } from './support/test-cloud';

/**
 * The benchmark's smoke variant (issue 14): a few single sends through the API, the send worker and
 * the SES events, measured as `npm run bench` measures them. A change that adds write units per
 * mail fails here until bench/budget.json is raised on purpose (and docs/cost.md says why).
 */

jest.setTimeout(120_000);

let cloud: TestCloud;

beforeAll(async () => {
  cloud = await startTestCloud({ workers: false });
}, CLOUD_TIMEOUT_MS);
afterAll(async () => {
  await cloud?.stop();
});

describe('what a single API send costs', () => {
  test('stays within the recorded write-unit budget through delivered', async () => {
    const memory = { send: DEFAULT_MEMORY_MB, 'send-worker': DEFAULT_MEMORY_MB, 'ses-events': DEFAULT_MEMORY_MB };
    const result = await measureSingleSends(cloud, { mails: 20, memory });
    // Every mail was sent and delivered: one Delivery event each.
    expect(result.event_publishes_per_mail).toBe(1);
    expect(result.write_units_per_mail).toBeLessThanOrEqual(budget.single.write_units_per_mail);
  });
});
