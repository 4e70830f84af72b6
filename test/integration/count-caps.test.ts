import { services } from '../../composition/services';
import { createOrganization, issuePartnerKey } from '../../shared/platform/organizations/organization-service';
import { batchWriteAll } from '../../shared/platform/store/batch-write';
import { segmentKey } from '../../shared/platform/store/keys';
import { CLOUD_TIMEOUT_MS, startTestCloud, type TestCloud } from './support/test-cloud';

jest.setTimeout(120_000);

let cloud: TestCloud;
let n = 0;
type Data = Record<string, any>;

async function freshProject(): Promise<{ key: string; id: string }> {
  const res = await cloud.api('POST', '/v1/partner/projects', { key: cloud.seed.partner_key, body: { name: `Caps ${Date.now()}-${n++}` } });
  expect(res.status).toBe(201);
  return { key: res.body.api_key as string, id: res.body.project_id as string };
}
const api = (key: string, method: string, path: string, body?: unknown) => cloud.api(method, path, { key, body });

beforeAll(async () => {
  cloud = await startTestCloud();
}, CLOUD_TIMEOUT_MS);
afterAll(() => cloud?.stop());

describe('A project has at most 500 segments, also under parallel requests', () => {
  /** Stores `count` static segments the way a project made before the segment count has them: items only, no count. */
  async function seedUncountedSegments(projectId: string, count: number) {
    const now = new Date().toISOString();
    await batchWriteAll(
      services().db,
      Array.from({ length: count }, (_, i) => {
        const id = `00000000-0000-4000-8000-${String(i).padStart(12, '0')}`;
        return { put: { ...segmentKey(projectId, id), id, project_id: projectId, name: `Seeded ${i}`, description: null, type: 'static', created_at: now, updated_at: now } };
      }),
    );
  }
  const segmentCount = async (key: string) => ((await api(key, 'GET', '/v1/segments')).body.data as Data[]).length;

  test('30 parallel creates on a project with 495 segments (made before the count) create exactly 5', async () => {
    const { key, id } = await freshProject();
    await seedUncountedSegments(id, 495);
    const answers = await Promise.all(Array.from({ length: 30 }, (_, i) => api(key, 'POST', '/v1/segments', { name: `Parallel ${i}` })));
    expect(answers.filter((a) => a.status === 201)).toHaveLength(5);
    const refused = answers.filter((a) => a.status !== 201);
    expect(refused.map((a) => [a.status, a.body.error])).toEqual(refused.map(() => [400, 'A project may have at most 500 segments']));
    expect(await segmentCount(key)).toBe(500);

    // Deleting frees places; parallel deletes of one segment delete it once; parallel creates fill exactly the free places.
    const ids = ((await api(key, 'GET', '/v1/segments')).body.data as Data[]).slice(0, 3).map((s) => s.id as string);
    const deletes = await Promise.all([...ids, ids[0]].map((s) => api(key, 'DELETE', `/v1/segments/${s}`)));
    expect(deletes.map((d) => d.status).sort()).toEqual([200, 200, 200, 404]);
    expect(await segmentCount(key)).toBe(497);
    const refill = await Promise.all(Array.from({ length: 30 }, (_, i) => api(key, 'POST', '/v1/segments', { name: `Refill ${i}` })));
    expect(refill.filter((a) => a.status === 201)).toHaveLength(3);
    expect(await segmentCount(key)).toBe(500);
  });

  test('a new project counts from its first segment', async () => {
    const { key } = await freshProject();
    const answers = await Promise.all(Array.from({ length: 10 }, (_, i) => api(key, 'POST', '/v1/segments', { name: `S${i}` })));
    expect(answers.map((a) => a.status)).toEqual(Array(10).fill(201));
    expect(await segmentCount(key)).toBe(10);
  });
});

describe('A partner organization has at most max_projects active projects, also under parallel requests', () => {
  test('12 parallel creations under a quota of 5 create exactly 5', async () => {
    const { db, clock } = services();
    const org = await createOrganization(db, clock, { name: `Quota ${n++}`, maxProjects: 5 });
    const key = (await issuePartnerKey(db, clock, org.id)).key;
    const answers = await Promise.all(Array.from({ length: 12 }, (_, i) => cloud.api('POST', '/v1/partner/projects', { key, body: { name: `Client ${i}` } })));
    expect(answers.filter((a) => a.status === 201)).toHaveLength(5);
    expect(answers.filter((a) => a.status !== 201).map((a) => a.body.code)).toEqual(Array(7).fill('MAX_PROJECTS_REACHED'));
    expect(((await cloud.api('GET', '/v1/partner/projects', { key })).body.projects as Data[]).length).toBe(5);
  });
});
