import { ACTIVITY_INDEX_SHARDS, activityIndexes, activityListPartition, activityStatusIndex, shardOf } from '../../../../shared/platform/store/keys';

const activity = { project_id: 'p-1', id: '0190c3a4-0000-7000-8000-000000000001', created_at: '2030-01-01T00:00:00.000Z', recipient_primary: 'Reader@Example.com' };

describe('shardOf', () => {
  test('gives the same shard for the same text, always within range', () => {
    for (const text of ['a', 'reader@example.com', '', 'x'.repeat(300)]) {
      const shard = shardOf(text, ACTIVITY_INDEX_SHARDS);
      expect(shard).toBe(shardOf(text, ACTIVITY_INDEX_SHARDS));
      expect(shard).toBeGreaterThanOrEqual(0);
      expect(shard).toBeLessThan(ACTIVITY_INDEX_SHARDS);
    }
  });

  test('spreads distinct texts over every shard', () => {
    const used = new Set(Array.from({ length: 1000 }, (_, i) => shardOf(`reader${i}@example.com`, ACTIVITY_INDEX_SHARDS)));
    expect(used.size).toBe(ACTIVITY_INDEX_SHARDS);
  });
});

describe('the activity list index (one entry per mail serves the project list and the recipient filter)', () => {
  test('a new record writes one project-list entry, in its recipient\'s shard, and no other index', () => {
    const attributes = activityIndexes(activity);
    expect(Object.keys(attributes).sort()).toEqual(['gsi3pk', 'gsi3sk']);
    expect(attributes.gsi3pk).toBe(`ACTS#p-1#${shardOf('reader@example.com', ACTIVITY_INDEX_SHARDS)}`);
    expect(attributes.gsi3sk).toBe(`${activity.created_at}#${activity.id}`);
  });

  test('the project list reads every shard; the recipient filter reads only its recipient\'s, lowercased', () => {
    const project = activityListPartition.project('p-1');
    expect(project.pks).toHaveLength(ACTIVITY_INDEX_SHARDS);
    expect(project.pks).toContain(activityIndexes(activity).gsi3pk);
    const recipient = activityListPartition.recipient('p-1', 'READER@example.com');
    expect(recipient.pks).toEqual([activityIndexes(activity).gsi3pk]);
    expect(recipient.filter?.values).toEqual({ ':recipient': 'reader@example.com' });
  });

  test('rare statuses and campaigns are sharded by id, and their lists read every shard', () => {
    const status = activityStatusIndex('p-1', 'bounced', activity.created_at, activity.id);
    expect(activityListPartition.status('p-1', 'bounced').pks).toContain(status.gsi5pk);
    const campaign = activityIndexes({ ...activity, campaign_id: 'camp-1' });
    expect(activityListPartition.campaign('p-1', 'camp-1').pks).toContain(campaign.gsi6pk);
    expect(activityListPartition.automationRun('p-1', 'camp-1').pks).not.toContain(campaign.gsi6pk);
  });
});
