/**
 * The single table's physical shape: attribute names, indexes, TTL. Read by the CDK stack and by the
 * local cloud when it creates the table, so both build the same table. Key formats live in keys.ts.
 */
export const tableDefinition = {
  partitionKey: 'pk',
  sortKey: 'sk',
  /** Epoch seconds; DynamoDB deletes the item some time after (deletes by TTL cost nothing). */
  ttlAttribute: 'ttl',
  /**
   * Sparse indexes: an item is in an index only while it carries that index's attributes, so an
   * index costs writes only for the few items that need it (see keys.ts for who uses which).
   */
  globalSecondaryIndexes: [
    { name: 'gsi1', partitionKey: 'gsi1pk', sortKey: 'gsi1sk' },
    { name: 'gsi2', partitionKey: 'gsi2pk', sortKey: 'gsi2sk' },
  ] as ReadonlyArray<{ name: string; partitionKey: string; sortKey: string }>,
} as const;
