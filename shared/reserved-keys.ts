import { badRequest } from './errors';

/**
 * Keys no object a client sends may hold. `JSON.parse` makes `__proto__` an own property; a spread,
 * `Object.assign` or a merge then sets the prototype of the object it lands in (the variables of a
 * send lost every value that way), and `constructor` and `prototype` read as Object's own members
 * wherever a lookup is not own-only (a lead write answered 500). Refused where requests are parsed,
 * so no route ever holds one (docs/decisions.md, "Reserved keys").
 */
export const RESERVED_KEYS: ReadonlySet<string> = new Set(['__proto__', 'constructor', 'prototype']);

/** A reserved key found in a value, and where: `data.constructor`, `recipients[2].metadata.__proto__`. */
export interface ReservedKey {
  key: string;
  path: string;
}

interface Pending {
  value: unknown;
  /** How the parent reaches this value; built into a path only for the key that is reported. */
  parent?: Pending;
  step?: string | number;
}

function pathOf(node: Pending, key: string): string {
  const steps: (string | number)[] = [key];
  for (let n: Pending | undefined = node; n?.step !== undefined; n = n.parent) steps.unshift(n.step);
  return steps.map((step, i) => (typeof step === 'number' ? `[${step}]` : `${i === 0 ? '' : '.'}${step}`)).join('');
}

const isContainer = (value: unknown): value is object => value !== null && typeof value === 'object';

/** The first reserved key anywhere in a parsed JSON value (objects in arrays too), or undefined; iterative, so any depth is safe. */
export function findReservedKey(root: unknown): ReservedKey | undefined {
  const pending: Pending[] = [{ value: root }];
  while (pending.length > 0) {
    const node = pending.pop() as Pending;
    const { value } = node;
    if (!isContainer(value)) continue;
    // Only objects and arrays are queued: most values of a body are strings and numbers.
    if (Array.isArray(value)) {
      for (let i = value.length - 1; i >= 0; i--) if (isContainer(value[i])) pending.push({ value: value[i], parent: node, step: i });
      continue;
    }
    const keys = Object.keys(value);
    const reserved = keys.find((k) => RESERVED_KEYS.has(k));
    if (reserved !== undefined) return { key: reserved, path: pathOf(node, reserved) };
    for (let i = keys.length - 1; i >= 0; i--) {
      const child = (value as Record<string, unknown>)[keys[i]];
      if (isContainer(child)) pending.push({ value: child, parent: node, step: keys[i] });
    }
  }
  return undefined;
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
