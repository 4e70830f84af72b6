import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';

/** The table a repository works on: a document client and the table's name. */
export interface Db {
  readonly doc: DynamoDBDocumentClient;
  readonly tableName: string;
}

/**
 * A document client that drops undefined values (absent fields are simply not stored). Without the
 * SDK's logger middleware: no logger is configured, yet it filtered every request and response for
 * sensitive fields (about 0.05 to 0.15 ms a request, docs/decisions.md "Handler CPU").
 */
export function createDocumentClient(client = new DynamoDBClient({})): DynamoDBDocumentClient {
  client.middlewareStack.remove('loggerMiddleware');
  return DynamoDBDocumentClient.from(client, {
    marshallOptions: { removeUndefinedValues: true, convertClassInstanceToMap: false },
    unmarshallOptions: { wrapNumbers: false },
  });
}

/** Epoch seconds for the `ttl` attribute, `days` from `now`. */
export function ttlAfterDays(now: Date, days: number): number {
  return Math.floor(now.getTime() / 1000) + days * 86_400;
}

/** Drops the generic key attributes (`pk`, `sk`, `ttl`) from a stored item. */
export function stripKeys<T>(item: Record<string, unknown>): T {
  const { pk: _pk, sk: _sk, ttl: _ttl, ...rest } = item;
  return rest as T;
}
