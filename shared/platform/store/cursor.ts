/**
 * The store's side of the opaque list cursors (`cursor` in, `next_cursor` out): a position as
 * base64url JSON, and the checks that a position names keys of this table. Reading a client's cursor
 * back, with its 400, is the HTTP side's (shared/platform/http/cursor.ts): the store imports nothing from there.
 */

/** A position as the cursor a client passes back. */
export function encodeCursor(position: unknown): string {
  return Buffer.from(JSON.stringify(position), 'utf8').toString('base64url');
}

/** The position a cursor names, when `check` accepts it; undefined for anything else (not base64url JSON, too long, refused by `check`). */
export function readCursor<T>(cursor: string, check: (value: unknown) => value is T): T | undefined {
  let value: unknown;
  try {
    if (cursor.length > 4096 || !/^[A-Za-z0-9_-]+$/.test(cursor)) return undefined;
    value = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
  } catch {
    return undefined;
  }
  return check(value) ? value : undefined;
}

/**
 * A string DynamoDB takes as a key value: not empty, at most 1,024 characters, well-formed UTF-16
 * (a lone surrogate cannot be encoded), without U+10FFFF (the bound above every prefix's keys).
 */
export function isKeyString(value: unknown): value is string {
  return typeof value === 'string' && value.length > 0 && value.length <= 1024 && !/\p{Cs}/u.test(value) && !value.includes('\u{10FFFF}');
}

/** A plain object whose keys are exactly `keys`, each a key string (isKeyString). */
export function isStringRecord(value: unknown, keys: readonly string[]): value is Record<string, string> {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return false;
  const own = Object.keys(value);
  return own.length === keys.length && keys.every((k) => isKeyString((value as Record<string, unknown>)[k]));
}
