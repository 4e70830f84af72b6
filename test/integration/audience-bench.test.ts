import { measureAudience } from '../../bench/audience';
import { CLOUD_TIMEOUT_MS, startTestCloud, type TestCloud } from './support/test-cloud';

/**
 * The audience benchmark's smoke variant: `npm run bench` imports a million leads and evaluates a
 * dynamic segment over them; here the same code runs over 2,000 rows (with bad rows and repeated
 * emails), so that a change that breaks it, or adds write units per imported lead, fails in `npm test`.
 */

jest.setTimeout(180_000);

let cloud: TestCloud;

beforeAll(async () => {
  cloud = await startTestCloud({ workers: false });
}, CLOUD_TIMEOUT_MS);
afterAll(async () => {
  await cloud?.stop();
});

describe('the audience benchmark, small', () => {
  test('imports 2,000 rows (4 bad, 2 repeated emails) and evaluates a dynamic segment over the leads', async () => {
    const result = await measureAudience(cloud, { leads: 2000 });
    expect(result.import).toMatchObject({ rows: 2000, rows_failed: 4, duplicates: 2, leads_created: 1994 });
    // A new lead with a name: 2 (transactional put) + 2 (id item) + 1 (gsi3) + 1 (gsi4), plus its share
    // of the counters and the checkpoints (shared/platform/store/keys.ts).
    expect(result.import.write_units_per_lead).toBeGreaterThanOrEqual(6);
    expect(result.import.write_units_per_lead).toBeLessThanOrEqual(6.5);
    // Plan "pro" (every third row) or tag "vip" (every seventh): between a third and a half of the leads.
    expect(result.dynamic_segment.leads).toBe(1994);
    expect(result.dynamic_segment.members).toBeGreaterThan(1994 / 3);
    expect(result.dynamic_segment.members).toBeLessThan(1994 / 2);
  });
});
