import { QueryCommand, type QueryCommandInput } from '@aws-sdk/lib-dynamodb';
import type { AwsStub } from 'aws-sdk-client-mock';

/** What one Query asked for and how many entries it evaluated. */
export interface RecordedQuery {
  input: QueryCommandInput;
  scanned: number;
}

/**
 * Serves Query from an in-memory table or index: items grouped by the partition key named `pkName`,
 * ordered by `skName`, with the key conditions the lists use (`=` on the partition; `BETWEEN`, `<=`,
 * `>=` or `begins_with` on the sort key), `ScanIndexForward`, `Limit`, `ExclusiveStartKey`,
 * `Select: 'COUNT'` and a FilterExpression `#a = :v` or `contains(#a, :v)` (any other throws). Every Query is recorded with the
 * entries it evaluated, the read a real table would charge for.
 */
export function serveQueries(doc: AwsStub<any, any, any>, items: readonly Record<string, unknown>[], names: { pkName: string; skName: string }): RecordedQuery[] {
  const recorded: RecordedQuery[] = [];
  doc.on(QueryCommand).callsFake((input: QueryCommandInput) => {
    const attr = (token: string) => (token.startsWith('#') ? String(input.ExpressionAttributeNames?.[token]) : token);
    const value = (token: string) => input.ExpressionAttributeValues?.[token];
    const condition = String(input.KeyConditionExpression);
    const pkName = names.pkName;
    const skName = names.skName;
    const pk = value(condition.match(/^\S+ = (:\w+)/)![1]);
    let rows = items.filter((i) => i[pkName] === pk).sort((a, b) => (String(a[skName]) < String(b[skName]) ? -1 : 1));
    const sk = (i: Record<string, unknown>) => String(i[skName]);
    let m: RegExpMatchArray | null;
    if ((m = condition.match(/BETWEEN (:\w+) AND (:\w+)/))) rows = rows.filter((i) => sk(i) >= String(value(m![1])) && sk(i) <= String(value(m![2])));
    else if ((m = condition.match(/<= (:\w+)/))) rows = rows.filter((i) => sk(i) <= String(value(m![1])));
    else if ((m = condition.match(/>= (:\w+)/))) rows = rows.filter((i) => sk(i) >= String(value(m![1])));
    else if ((m = condition.match(/begins_with\(\S+, (:\w+)\)/))) rows = rows.filter((i) => sk(i).startsWith(String(value(m![1]))));
    if (input.ScanIndexForward === false) rows.reverse();
    const start = input.ExclusiveStartKey;
    if (start) {
      const at = String(start[skName]);
      rows = rows.filter((i) => (input.ScanIndexForward === false ? sk(i) < at : sk(i) > at));
    }
    const limit = input.Limit ?? Infinity;
    const evaluated = rows.slice(0, limit);
    const equals = input.FilterExpression?.match(/^(#\w+) = (:\w+)$/);
    const contains = input.FilterExpression?.match(/^contains\((#\w+), (:\w+)\)$/);
    if (input.FilterExpression && !equals && !contains) throw new Error(`fake-index: unsupported FilterExpression ${input.FilterExpression}`);
    const matches = equals
      ? evaluated.filter((i) => i[attr(equals[1])] === value(equals[2]))
      : contains
        ? evaluated.filter((i) => typeof i[attr(contains[1])] === 'string' && String(i[attr(contains[1])]).includes(String(value(contains[2]))))
        : evaluated;
    recorded.push({ input, scanned: evaluated.length });
    const last = evaluated.length === limit && evaluated.length > 0 ? evaluated[evaluated.length - 1] : undefined;
    const lastKey = last ? Object.fromEntries(['pk', 'sk', pkName, skName].map((k) => [k, last[k]])) : undefined;
    return {
      ...(input.Select === 'COUNT' ? {} : { Items: matches }),
      Count: matches.length,
      ScannedCount: evaluated.length,
      ...(lastKey ? { LastEvaluatedKey: lastKey } : {}),
    };
  });
  return recorded;
}

/** The entries a request's Queries evaluated in all. */
export const entriesRead = (recorded: readonly RecordedQuery[]): number => recorded.reduce((sum, q) => sum + q.scanned, 0);
