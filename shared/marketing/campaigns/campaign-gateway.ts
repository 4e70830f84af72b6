/**
 * The campaign gateway: the one module that reads and writes a campaign and what the engine keeps
 * beside it (its cursor, held jobs, counters, the shared send budget) and the index pages it walks.
 * Everything else in the campaigns and campaign reports goes through these functions; their
 * DynamoDB commands live in ./store, one file per stored thing.
 */
export * from './store/campaign-items';
export * from './store/engine-cursor';
export * from './store/campaign-counts';
export * from './store/send-budget';
export * from './store/index-pages';
export * from './store/provider-budget';
