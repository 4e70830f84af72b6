/**
 * A DynamoDB meter that also says where the writes land: units and requests as bench/measure.ts
 * counts them (the consumed capacity DynamoDB Local reports, index writes included), transactions
 * priced by their actions (DynamoDB Local reports a flat figure for them; bench/audience.ts prices
 * them with the same rule); each write classified by the item it writes (the key's prefixes: `AUTORUN RUN`,
 * `AUTORUN STEP`, `ACT`...), and each partition it touches (the table's `pk`, and every index
 * partition the item enters: `gsi6pk AUTORUNS#<automation>#7`) counted. Used by bench/automation.ts
 * for write units by item and the busiest partition.
 */
import { DynamoDBClient, type ConsumedCapacity } from '@aws-sdk/client-dynamodb';
import { tableDefinition } from '../shared/platform/store/table-definition';
import type { Meter } from './measure';

const WRITE_COMMANDS = new Set(['PutItemCommand', 'UpdateItemCommand', 'DeleteItemCommand', 'BatchWriteItemCommand', 'TransactWriteItemsCommand']);

/**
 * Bytes of a value as DynamoDB sizes items (names and strings in UTF-8, numbers about 1 byte per 2
 * digits). The meter runs before marshalling, so it sees the document client's plain values.
 */
function valueBytes(v: unknown): number {
  if (typeof v === 'string') return Buffer.byteLength(v);
  if (typeof v === 'number') return Math.ceil(String(v).length / 2) + 1;
  if (Array.isArray(v)) return 3 + v.reduce((sum: number, x) => sum + 1 + valueBytes(x), 0);
  if (v && typeof v === 'object') return 3 + itemBytes(v as Record<string, unknown>);
  return 1;
}
const itemBytes = (item: Record<string, unknown>) => Object.entries(item).reduce((sum, [k, v]) => sum + Buffer.byteLength(k) + valueBytes(v), 0);

/**
 * Write units of a TransactWriteItems call by DynamoDB's rules: 2 per KB of each item written (or
 * checked), plus 1 per KB for each index entry a put writes. DynamoDB Local reports a flat figure for
 * transactions whatever their size (8 units for 5 actions or for 100), so they are priced from their actions.
 */
export function transactionUnits(items: readonly { Put?: { Item?: Record<string, unknown> } }[]): number {
  const gsiKeys = tableDefinition.globalSecondaryIndexes.map((g) => g.partitionKey);
  return items.reduce((sum, action) => {
    if (action.Put) {
      const kb = Math.ceil(itemBytes(action.Put.Item ?? {}) / 1024);
      return sum + 2 * kb + gsiKeys.filter((k) => action.Put!.Item?.[k] !== undefined).length * kb;
    }
    // Updates here are counter ADDs and small rewrites; deletes and condition checks touch one small item.
    return sum + 2;
  }, 0);
}

/** Write units and requests of one kind of item. */
export interface ItemWrites {
  write: number;
  requests: number;
}

/** What a client's writes touched: units by kind of item, and writes by partition. */
export interface WriteMap {
  byItem: Map<string, ItemWrites>;
  byPartition: Map<string, number>;
}

export const newWriteMap = (): WriteMap => ({ byItem: new Map(), byPartition: new Map() });

/** A document value as written: plain (before marshalling) or `{S: '...'}` (after). */
function plain(value: unknown): unknown {
  if (value && typeof value === 'object' && !Array.isArray(value)) {
    const v = value as Record<string, unknown>;
    if (typeof v.S === 'string') return v.S;
    if (typeof v.N === 'string') return Number(v.N);
  }
  return value;
}

const prefixOf = (key: unknown): string => {
  const s = String(plain(key) ?? '');
  const cut = s.indexOf('#');
  return cut < 0 ? s : s.slice(0, cut);
};

/** The kind of an item: its partition key's prefix and its sort key's (`AUTORUN STEP`). */
export const itemKind = (key: Record<string, unknown>): string => `${prefixOf(key.pk)} ${prefixOf(key.sk)}`.trim();

/** A partition with its ids hidden (`gsi6pk AUTORUNS#<id>#7`): the pattern the key design names. */
export const partitionPattern = (partition: string): string => partition.replace(/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/gi, '<id>');

/** Index partitions an update sets (`SET gsi5pk = :v`, names resolved). */
function updatedIndexPartitions(input: Record<string, unknown>): string[] {
  const expression = String(input.UpdateExpression ?? '');
  const names = (input.ExpressionAttributeNames ?? {}) as Record<string, string>;
  const values = (input.ExpressionAttributeValues ?? {}) as Record<string, unknown>;
  const out: string[] = [];
  for (const [, name, placeholder] of expression.matchAll(/([#\w]+)\s*=\s*(:\w+)/g)) {
    const attribute = names[name] ?? name;
    if (/^gsi\d+pk$/.test(attribute) && values[placeholder] !== undefined) out.push(`${attribute} ${String(plain(values[placeholder]))}`);
  }
  return out;
}

/** The (kind, partitions) of each item a write command writes (its input as the document client or the marshaller left it). */
export function writtenItems(command: string, input: Record<string, unknown>): { kind: string; partitions: string[] }[] {
  const item = (fields: Record<string, unknown>) => ({
    kind: itemKind(fields),
    partitions: [`pk ${String(plain(fields.pk))}`, ...Object.entries(fields).filter(([k]) => /^gsi\d+pk$/.test(k)).map(([k, v]) => `${k} ${String(plain(v))}`)],
  });
  switch (command) {
    case 'PutItemCommand':
      return [item(input.Item as Record<string, unknown>)];
    case 'UpdateItemCommand': {
      const key = input.Key as Record<string, unknown>;
      return [{ kind: itemKind(key), partitions: [`pk ${String(plain(key.pk))}`, ...updatedIndexPartitions(input)] }];
    }
    case 'DeleteItemCommand':
      return [item(input.Key as Record<string, unknown>)];
    case 'BatchWriteItemCommand':
      return Object.values(input.RequestItems as Record<string, { PutRequest?: { Item: Record<string, unknown> }; DeleteRequest?: { Key: Record<string, unknown> } }[]>)
        .flat()
        .map((r) => item(r.PutRequest?.Item ?? r.DeleteRequest?.Key ?? {}));
    case 'TransactWriteItemsCommand':
      return (input.TransactItems as Record<string, { Item?: Record<string, unknown>; Key?: Record<string, unknown> }>[]).map((action) => {
        const [op] = Object.values(action);
        return item(op.Item ?? op.Key ?? {});
      });
    default:
      return [];
  }
}

/** A DynamoDB client that adds the units and requests of every call to `meter`, and its writes to `map`. */
export function meteredTable(meter: Meter, map: WriteMap): DynamoDBClient {
  const client = new DynamoDBClient({});
  client.middlewareStack.add(
    (next, context) => async (args) => {
      const input = args.input as Record<string, unknown>;
      input.ReturnConsumedCapacity = 'TOTAL';
      const result = await next(args);
      const command = context.commandName ?? '';
      const consumed = (result.output as { ConsumedCapacity?: ConsumedCapacity | ConsumedCapacity[] }).ConsumedCapacity;
      const reported = [consumed ?? []].flat().reduce((sum, c) => sum + (c.CapacityUnits ?? 0), 0);
      meter.requests++;
      if (!WRITE_COMMANDS.has(command)) {
        meter.read += reported;
        return result;
      }
      const units = command === 'TransactWriteItemsCommand' ? transactionUnits(input.TransactItems as { Put?: { Item?: Record<string, unknown> } }[]) : reported;
      meter.write += units;
      const items = writtenItems(command, input);
      // A batch's units are shared evenly among its items (they are one kind in practice).
      for (const { kind, partitions } of items) {
        const entry = map.byItem.get(kind) ?? { write: 0, requests: 0 };
        entry.write += units / items.length;
        entry.requests += 1 / items.length;
        map.byItem.set(kind, entry);
        for (const p of partitions) map.byPartition.set(p, (map.byPartition.get(p) ?? 0) + 1);
      }
      return result;
    },
    { step: 'initialize', name: 'benchTableMeter' },
  );
  return client;
}

/** The busiest partition of each pattern (`gsi6pk AUTORUNS#<id>#<n>`: the busiest shard), most writes first. */
export function busiestByPattern(map: WriteMap, top: number): { pattern: string; partitions: number; most_writes: number; writes: number }[] {
  const groups = new Map<string, { partitions: number; most: number; writes: number }>();
  for (const [partition, writes] of map.byPartition) {
    const pattern = partitionPattern(partition).replace(/#\d+$/, '#<shard>');
    const g = groups.get(pattern) ?? { partitions: 0, most: 0, writes: 0 };
    g.partitions += 1;
    g.most = Math.max(g.most, writes);
    g.writes += writes;
    groups.set(pattern, g);
  }
  return [...groups.entries()]
    .map(([pattern, g]) => ({ pattern, partitions: g.partitions, most_writes: g.most, writes: g.writes }))
    .sort((a, b) => b.most_writes - a.most_writes)
    .slice(0, top);
}
