/**
 * The single table's physical shape: attribute names, indexes, TTL. Read by the CDK stack and by the
 * local cloud when it creates the table, so both build the same table. Key formats live in keys.ts.
 */
export const tableDefinition = {
  partitionKey: 'pk',
  sortKey: 'sk',
  /** Epoch seconds; DynamoDB deletes the item some time after (deletes by TTL cost nothing). */
  ttlAttribute: 'ttl',
  globalSecondaryIndexes: [] as ReadonlyArray<{ name: string; partitionKey: string; sortKey: string }>,
} as const;
