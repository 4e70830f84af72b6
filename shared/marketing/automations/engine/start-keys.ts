/** A page's position (a DynamoDB start key) as the opaque cursor of a continuation message, and back. */
export const encodeStartKey = (key: Record<string, unknown>): string => Buffer.from(JSON.stringify(key), 'utf8').toString('base64url');

/** The start key of a continuation's cursor (undefined: from the start). */
export function decodeStartKey(cursor: string | undefined): Record<string, unknown> | undefined {
  if (!cursor) return undefined;
  return JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8')) as Record<string, unknown>;
}
