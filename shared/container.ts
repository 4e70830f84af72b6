/**
 * Kept only so the folders other branches are narrowing right now (sending, batches, scheduling,
 * quota) need no edit of their import line: the services are built in
 * composition/services.ts, and the type lives in shared/dependencies.ts. Delete once nothing imports it.
 */
export type { Services } from './dependencies';
