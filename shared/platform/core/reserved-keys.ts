import { badRequest } from './errors';

import { inspectJson, type ReservedKey } from './json-inspection';

/**
 * `__proto__`, `constructor` and `prototype` as keys: `JSON.parse` makes `__proto__` an own
 * property; a spread, `Object.assign` or a merge then sets the prototype of the object it lands in
 * (the variables of a send lost every value that way), and `constructor` and `prototype` read as
 * Object's own members wherever a lookup is not own-only (a lead write answered 500). Refused where
 * requests are parsed, so no route ever holds one (docs/decisions.md, "Reserved keys").
 */
export { RESERVED_KEYS, type ReservedKey } from './json-inspection';

/** The first reserved key anywhere in a parsed JSON value (objects in arrays too), or undefined. */
export function findReservedKey(root: unknown): ReservedKey | undefined {
  return inspectJson(root).reserved;
}

/** The words of a refusal: the key, where it was, and why. */
export function reservedKeyMessage({ key, path }: ReservedKey): string {
  return path === key
    ? `Key "${key}" is not allowed: __proto__, constructor and prototype are reserved`
    : `Key "${key}" (at ${path}) is not allowed: __proto__, constructor and prototype are reserved`;
}

/** Throws the 400 naming the first reserved key of a parsed request body. */
export function refuseReservedKeys(body: unknown): void {
  const found = findReservedKey(body);
  if (found) throw badRequest(reservedKeyMessage(found));
}

/**
 * A record's own value for a name a client gave as a value (a filter's attribute, a campaign
 * mapping's lead field): never one of Object's members (`toString`, `constructor`...), which a
 * plain `record[name]` finds on every object.
 */
export function ownValue(record: Readonly<Record<string, unknown>>, name: string): unknown {
  return Object.hasOwn(record, name) ? record[name] : undefined;
}
