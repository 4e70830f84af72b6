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
    // ALL: small, rarely written items (domains due for a check, every domain for the sweep).
    { name: 'gsi1', partitionKey: 'gsi1pk', sortKey: 'gsi1sk', projection: 'ALL' },
    { name: 'gsi2', partitionKey: 'gsi2pk', sortKey: 'gsi2sk', projection: 'ALL' },
    // KEYS_ONLY (or a never-changing attribute): activity lists. An update that changes nothing an
    // index holds writes nothing to it, so status updates stay 1 write unit; the list reads the
    // records by key afterwards. gsi3 also holds the recipient, which serves the `email` filter.
    { name: 'gsi3', partitionKey: 'gsi3pk', sortKey: 'gsi3sk', projection: 'INCLUDE', nonKeyAttributes: ['recipient_primary'] },
    // KEYS_ONLY, sparse: leads by name prefix (only leads with a name carry it); a project's domains, newest first.
    { name: 'gsi4', partitionKey: 'gsi4pk', sortKey: 'gsi4sk', projection: 'KEYS_ONLY' },
    { name: 'gsi5', partitionKey: 'gsi5pk', sortKey: 'gsi5sk', projection: 'KEYS_ONLY' },
    { name: 'gsi6', partitionKey: 'gsi6pk', sortKey: 'gsi6sk', projection: 'KEYS_ONLY' },
  ] as ReadonlyArray<{ name: string; partitionKey: string; sortKey: string; projection: 'ALL' | 'KEYS_ONLY' | 'INCLUDE'; nonKeyAttributes?: readonly string[] }>,
} as const;
