import { badRequest } from '../core/errors';
import { isStringRecord, readCursor } from '../store/cursor';

/**
 * Opaque list cursors (`cursor` in, `next_cursor` out): a position as base64url JSON. A cursor is
 * only ever read back through a check that it names a position of the same list, so a forged one
 * can move within that list and never outside it. The codec is the store's (shared/platform/store/cursor.ts,
 * whose list readers write `next_cursor`); reading a client's cursor back, with its 400, is here.
 */

// Re-exported for the services that build their own cursors (leads, custom events, activity, reports).
export { encodeCursor, isKeyString, isStringRecord } from '../store/cursor';

/** The position a cursor names, when `check` accepts it; otherwise 400 `cursor is not valid for this list`. */
export function decodeCursor<T>(cursor: string, check: (value: unknown) => value is T): T {
  const value = readCursor(cursor, check);
  if (value === undefined) throw badRequest('cursor is not valid for this list');
  return value;
}

/**
 * The start key a bounded list's cursor names (shared/platform/store/bounded-list.ts, `cursorOfStartKey`):
 * exactly the key attributes `names`, each a key string, and accepted by `within` (that it is an
 * entry of this very list), else 400 `cursor is not valid for this list`.
 */
export function startKeyOfCursor(cursor: string | undefined, names: readonly string[], within: (key: Record<string, string>) => boolean): Record<string, string> | undefined {
  if (cursor === undefined) return undefined;
  return decodeCursor(cursor, (v): v is Record<string, string> => isStringRecord(v, names) && within(v));
}

/** The position a sharded list's cursor names (shared/platform/store/sharded-list.ts writes `{ after }`): one key string. */
export function positionOfCursor(cursor: string | undefined): string | undefined {
  if (cursor === undefined) return undefined;
  return decodeCursor(cursor, (v): v is { after: string } => isStringRecord(v, ['after'])).after;
}
