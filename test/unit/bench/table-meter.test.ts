import { busiestByPattern, itemKind, newWriteMap, partitionPattern, writtenItems } from '../../../bench/table-meter';

const RUN = '0b5e2f7a-9c1d-4e3f-8a2b-1c0d9e8f7a6b';
const AUTOMATION = '6f1c2b9e-3a4d-4e5f-8a9b-0c1d2e3f4a5b';

describe('where the automation benchmark says writes land (bench/table-meter.ts)', () => {
  it('names an item by its keys\' prefixes, and a partition with its ids hidden', () => {
    expect(itemKind({ pk: `AUTORUN#${RUN}`, sk: 'STEP#00002' })).toBe('AUTORUN STEP');
    expect(itemKind({ pk: { S: `AUTORUN#${RUN}` }, sk: { S: 'RUN' } })).toBe('AUTORUN RUN');
    expect(partitionPattern(`gsi6pk AUTORUNS#${AUTOMATION}#7`)).toBe('gsi6pk AUTORUNS#<id>#7');
  });

  it('counts the table partition and every index partition a put enters', () => {
    const put = writtenItems('PutItemCommand', { Item: { pk: `AUTORUN#${RUN}`, sk: 'RUN', gsi6pk: `AUTORUNS#${AUTOMATION}#7`, gsi4pk: 'AUTOLEAD#p#l', state: 'active' } });
    expect(put).toEqual([{ kind: 'AUTORUN RUN', partitions: [`pk AUTORUN#${RUN}`, `gsi6pk AUTORUNS#${AUTOMATION}#7`, 'gsi4pk AUTOLEAD#p#l'] }]);
  });

  it('finds the index partition an update sets, through its attribute names', () => {
    const update = writtenItems('UpdateItemCommand', {
      Key: { pk: { S: `AUTORUN#${RUN}` }, sk: { S: 'RUN' } },
      UpdateExpression: 'SET #state = :state, #g5 = :g5, gsi5sk = :g5s REMOVE wait_event',
      ExpressionAttributeNames: { '#state': 'state', '#g5': 'gsi5pk' },
      ExpressionAttributeValues: { ':state': { S: 'waiting' }, ':g5': { S: 'AUTODUE#12' }, ':g5s': { S: 'x' } },
    });
    expect(update).toEqual([{ kind: 'AUTORUN RUN', partitions: [`pk AUTORUN#${RUN}`, 'gsi5pk AUTODUE#12'] }]);
  });

  it('takes each item of a batch, and nothing of a read', () => {
    const batch = writtenItems('BatchWriteItemCommand', { RequestItems: { t: [{ PutRequest: { Item: { pk: 'A#1', sk: 'X' } } }, { DeleteRequest: { Key: { pk: 'A#2', sk: 'X' } } }] } });
    expect(batch.map((i) => i.partitions[0])).toEqual(['pk A#1', 'pk A#2']);
    expect(writtenItems('GetItemCommand', { Key: { pk: 'A#1', sk: 'X' } })).toEqual([]);
  });

  it('reports the busiest partition of each pattern, shards folded together', () => {
    const map = newWriteMap();
    map.byPartition.set('gsi5pk AUTODUE#1', 3);
    map.byPartition.set('gsi5pk AUTODUE#2', 5);
    map.byPartition.set(`pk AUTORUN#${RUN}`, 4);
    expect(busiestByPattern(map, 5)).toEqual([
      { pattern: 'gsi5pk AUTODUE#<shard>', partitions: 2, most_writes: 5, writes: 8 },
      { pattern: 'pk AUTORUN#<id>', partitions: 1, most_writes: 4, writes: 4 },
    ]);
  });
});
