/**
 * One walk over a parsed JSON value for what the API refuses in any body: nesting deeper than a
 * bound, a NUL in a string or key, and a reserved key (`__proto__`, `constructor`, `prototype`).
 * Iterative, so any depth is safe; every request body is walked once, not once per check.
 */

/** Keys no object a client sends may hold (docs/decisions.md, "Reserved keys"). */
export const RESERVED_KEYS: ReadonlySet<string> = new Set(['__proto__', 'constructor', 'prototype']);

/** A reserved key found in a value, and where: `data.constructor`, `recipients[2].metadata.__proto__`. */
export interface ReservedKey {
  key: string;
  path: string;
}

/** What one walk found. */
export interface JsonInspection {
  /** Objects or arrays nest more than the bound (the walk stops there: the rest is unread). */
  readonly tooDeep: boolean;
  /** Some string or key holds U+0000. */
  readonly hasNul: boolean;
  /** The first reserved key in document order, if any. */
  readonly reserved?: ReservedKey;
}

interface Pending {
  value: object;
  depth: number;
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

/** Walks `root` once (depth first, in document order) and says what it holds; `maxDepth` bounds the nesting. */
export function inspectJson(root: unknown, maxDepth = Infinity): JsonInspection {
  let hasNul = typeof root === 'string' && root.includes('\u0000');
  let reserved: ReservedKey | undefined;
  const pending: Pending[] = isContainer(root) ? [{ value: root, depth: 0 }] : [];
  while (pending.length > 0) {
    const node = pending.pop() as Pending;
    if (node.depth >= maxDepth) return { tooDeep: true, hasNul, reserved };
    const { value } = node;
    // Children are queued in reverse, so that they are taken in document order.
    if (Array.isArray(value)) {
      for (let i = value.length - 1; i >= 0; i--) {
        const child: unknown = value[i];
        if (isContainer(child)) pending.push({ value: child, depth: node.depth + 1, parent: node, step: i });
        else if (typeof child === 'string' && child.includes('\u0000')) hasNul = true;
      }
      continue;
    }
    const keys = Object.keys(value);
    for (let i = keys.length - 1; i >= 0; i--) {
      const key = keys[i];
      if (key.includes('\u0000')) hasNul = true;
      const child = (value as Record<string, unknown>)[key];
      if (isContainer(child)) pending.push({ value: child, depth: node.depth + 1, parent: node, step: key });
      else if (typeof child === 'string' && child.includes('\u0000')) hasNul = true;
    }
    if (reserved === undefined) {
      const key = keys.find((k) => RESERVED_KEYS.has(k));
      if (key !== undefined) reserved = { key, path: pathOf(node, key) };
    }
  }
  return { tooDeep: false, hasNul, reserved };
}

/** True when a parsed JSON value nests objects or arrays more than `max` levels deep. */
export function nestedDeeperThan(root: unknown, max: number): boolean {
  return inspectJson(root, max).tooDeep;
}
