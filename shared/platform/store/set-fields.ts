/**
 * The parts of an UpdateCommand that SET each field (undefined ones left out) and REMOVE each of
 * `remove`, under placeholder names (`#f<n>`, `:v<n>`, `#r<n>`) so that any field name is safe.
 */
export function setFields(fields: Record<string, unknown>, remove: readonly string[] = []): { UpdateExpression: string; ExpressionAttributeNames: Record<string, string>; ExpressionAttributeValues: Record<string, unknown> } {
  const entries = Object.entries(fields).filter(([, v]) => v !== undefined);
  const clauses = [entries.length > 0 ? `SET ${entries.map((_, i) => `#f${i} = :v${i}`).join(', ')}` : '', remove.length > 0 ? `REMOVE ${remove.map((_, i) => `#r${i}`).join(', ')}` : ''];
  return {
    UpdateExpression: clauses.filter(Boolean).join(' '),
    ExpressionAttributeNames: Object.fromEntries([...entries.map(([k], i) => [`#f${i}`, k]), ...remove.map((k, i) => [`#r${i}`, k])]),
    ExpressionAttributeValues: Object.fromEntries(entries.map(([, v], i) => [`:v${i}`, v])),
  };
}

/** A condition with its own `#names` and `:values` (they must not be `#f<n>`, `:v<n>` or `#r<n>`, which setFields uses). */
export interface SetCondition {
  readonly expression: string;
  readonly names?: Record<string, string>;
  readonly values?: Record<string, unknown>;
}
