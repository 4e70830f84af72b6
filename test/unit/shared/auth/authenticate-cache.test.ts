import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { authenticateProject } from '../../../../shared/platform/auth/authenticate';
import { refuseDisabledProject } from '../../../../shared/platform/projects/project-active';
import { PROJECT_CACHE_SECONDS } from '../../../../shared/platform/projects/project-cache';
import { updateProjectFields } from '../../../../shared/platform/projects/project-repository';
import { generateKey } from '../../../../shared/platform/security/api-keys';
import type { Db } from '../../../../shared/platform/store/client';
import { apiKeyKey, projectKey } from '../../../../shared/platform/store/keys';

/**
 * A warm instance trusts an API key's lookup and its project for PROJECT_CACHE_SECONDS: a key
 * revoked or a project disabled elsewhere stops within that bound, and at once when this instance
 * made the change. The table is an in-memory map that counts reads; the clock is fake.
 */

let now = Date.UTC(2030, 0, 1);
const clock = { now: () => new Date(now) };
const items = new Map<string, Record<string, unknown>>();
let reads = 0;
const at = (key: { pk: string; sk: string }) => `${key.pk}|${key.sk}`;
const db: Db = {
  tableName: `t-${Math.random()}`,
  doc: {
    send: async (command: { constructor: { name: string }; input: { Key: { pk: string; sk: string } } }) => {
      if (command.constructor.name === 'GetCommand') {
        reads++;
        return { Item: items.get(at(command.input.Key)) };
      }
      // updateProjectFields: the same-instance write path.
      return {};
    },
  } as unknown as DynamoDBDocumentClient,
};

function seedProject(): { header: string; projectId: string; keyHash: string } {
  const key = generateKey('live');
  const projectId = `p-${Math.random()}`;
  items.set(at(apiKeyKey(key.hash)), { project_id: projectId, mode: 'live' });
  items.set(at(projectKey(projectId)), { id: projectId, name: 'P' });
  return { header: `Bearer ${key.plaintext}`, projectId, keyHash: key.hash };
}

beforeEach(() => {
  reads = 0;
});

describe('authenticateProject on a warm instance', () => {
  test('reads the key and the project once, then answers from memory within the bound', async () => {
    const { header } = seedProject();
    await authenticateProject(db, clock, header);
    await authenticateProject(db, clock, header);
    now += (PROJECT_CACHE_SECONDS - 1) * 1000;
    await authenticateProject(db, clock, header);
    expect(reads).toBe(2);
  });

  test(`a key revoked on another instance stops working within ${PROJECT_CACHE_SECONDS} s`, async () => {
    const { header, keyHash } = seedProject();
    await authenticateProject(db, clock, header);
    items.delete(at(apiKeyKey(keyHash)));
    now += PROJECT_CACHE_SECONDS * 1000 - 1;
    await expect(authenticateProject(db, clock, header)).resolves.toMatchObject({ kind: 'project' });
    now += 1;
    await expect(authenticateProject(db, clock, header)).rejects.toMatchObject({ status: 401 });
  });

  test(`a project disabled on another instance refuses sends within ${PROJECT_CACHE_SECONDS} s`, async () => {
    const { header, projectId } = seedProject();
    await authenticateProject(db, clock, header);
    items.set(at(projectKey(projectId)), { id: projectId, name: 'P', disabled_at: new Date(now).toISOString() });
    now += PROJECT_CACHE_SECONDS * 1000;
    const caller = await authenticateProject(db, clock, header);
    expect(() => refuseDisabledProject(caller.project)).toThrow('Project is disabled; sending is stopped');
  });

  test('a change made on this instance is seen at once', async () => {
    const { header, projectId } = seedProject();
    await authenticateProject(db, clock, header);
    items.set(at(projectKey(projectId)), { id: projectId, name: 'P', disabled_at: new Date(now).toISOString() });
    await updateProjectFields(db, projectId, { disabled_at: new Date(now).toISOString() });
    const caller = await authenticateProject(db, clock, header);
    expect(caller.project.disabled_at).toBeDefined();
  });
});
