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
 *
 * Every number we hold is a JavaScript number (a client's came through JSON.parse): it is stored as
 * it is written, beyond 2^53 too, and read back as the same number. The SDK's defaults refused to
 * write a whole number beyond 2^53 (lead data with 2^60 answered 500, though it is within the
 * DynamoDB range the validation checks) and read one back as a BigInt, which no JSON answer carries.
 */
export function createDocumentClient(client = new DynamoDBClient({})): DynamoDBDocumentClient {
  client.middlewareStack.remove('loggerMiddleware');
  return DynamoDBDocumentClient.from(client, {
    marshallOptions: { removeUndefinedValues: true, convertClassInstanceToMap: false, allowImpreciseNumbers: true },
    unmarshallOptions: { wrapNumbers: (value: string) => Number(value) },
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
