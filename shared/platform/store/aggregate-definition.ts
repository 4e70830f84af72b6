/**
 * One definition per stored thing (an aggregate: a lead, a domain, an import...): its key builders,
 * the indexes it writes, its TTL and the moves between its states, in one place. keys.ts is what the
 * definitions generate; a gateway (the aggregate's repository) turns a declared transition into its
 * conditional write with `applyTransition`, so the states an item may leave are written down once
 * and a lost condition has one answer: false.
 *
 * This file holds what the definitions are made of and nothing that talks to DynamoDB (no SDK
 * import), so that keys.ts, which re-exports their key builders, loads no SDK; the writes are in
 * aggregate.ts.
 */

/** The key of one item of the single table. */
export interface ItemKey {
  pk: string;
  sk: string;
}

/** The table's global secondary indexes (table-definition.ts). */
export type IndexName = 'gsi1' | 'gsi2' | 'gsi3' | 'gsi4' | 'gsi5' | 'gsi6';

/**
 * A move of an aggregate's state: allowed only while the item is in one of `from`; it sets the state
 * field to `to`, the fields of `set` the caller gives values for, removes those of `remove` (a sparse
 * index's attributes, say) and adds 1 to those of `increment` (a `version`).
 */
export interface Transition {
  readonly from: readonly string[];
  readonly to: string;
  readonly set?: readonly string[];
  readonly remove?: readonly string[];
  readonly increment?: readonly string[];
}

/**
 * Seconds in `n` days, for a `TimeToLive`. Call it `/* @__PURE__ *\/ days(n)`: esbuild keeps a
 * definition whose arguments hold arithmetic (`30 * 86_400` might call a valueOf), so a bundle that
 * never reads the aggregate would carry it; a pure call lets it go.
 */
export function days(n: number): number {
  return n * 86_400;
}

/** Seconds in `n` hours, for a `TimeToLive` (called `/* @__PURE__ *\/ hours(n)`, as `days`). */
export function hours(n: number): number {
  return n * 3600;
}

/** How long an aggregate's expiring items (`items` names which) live before DynamoDB's TTL deletes them (the `ttl` attribute, epoch seconds). */
export interface TimeToLive {
  readonly attribute: 'ttl';
  readonly items: string;
  readonly seconds: number;
}

/**
 * One row of the access-pattern table (docs/access-patterns.md): who reads and writes what, at what
 * cost. Each definition file keeps its aggregates' rows beside them, apart from the definitions, so
 * that function bundles (which import every definition through keys.ts) leave the text out.
 */
export interface AccessPattern {
  readonly pattern: string;
  readonly pk: string;
  readonly sk: string;
  readonly operation: string;
  readonly wcu: string;
}

/**
 * An aggregate's state machine: its name, the field holding its state and the moves between its
 * states. Declared apart (`defineLifecycle`) and handed to `defineAggregate`, it lets a gateway apply
 * the transitions without holding the definition, whose key builders would all come into the
 * function's bundle with it.
 */
export interface Lifecycle<T extends Record<string, Transition> = Record<string, Transition>> {
  readonly name: string;
  /** The attribute holding the state the transitions move (`status` unless said). */
  readonly stateField: string;
  readonly transitions: T;
}

/** An aggregate's definition, as `defineAggregate` returns it. */
export interface Aggregate<K extends Record<string, unknown> = Record<string, unknown>, T extends Record<string, Transition> = Record<string, Transition>> extends Lifecycle<T> {
  /** Every key builder, prefix and shard count of the aggregate's items (re-exported by keys.ts under the same names). */
  readonly keys: K;
  readonly indexes: readonly IndexName[];
  /** Its items with a fixed lifetime (those whose lifetime is a setting, such as activity retention, are not listed). */
  readonly ttl: readonly TimeToLive[];
}

/** Declares an aggregate's state machine (called `@__PURE__`, as `defineAggregate`); its definition names it as `lifecycle`. */
export function defineLifecycle<const T extends Record<string, Transition>>(definition: { name: string; stateField?: string; transitions: T }): Lifecycle<T> {
  for (const [name, t] of Object.entries(definition.transitions)) {
    if (t.from.length === 0) throw new Error(`Transition ${definition.name}.${name} leaves no state`);
  }
  return { ...definition, stateField: definition.stateField ?? 'status' };
}

/**
 * Declares an aggregate: its keys, indexes, TTL and state transitions (`transitions`, or a
 * `lifecycle` declared apart for a gateway to apply). A definition file writes each key builder as
 * an exported top-level declaration that `keys` lists (keys.ts re-exports those very functions) and
 * calls defineAggregate marked `@__PURE__` with no arithmetic in its arguments: then a function
 * bundle keeps the key builders it uses and drops every definition it never reads.
 */
export function defineAggregate<const K extends Record<string, unknown>, const T extends Record<string, Transition> = Record<never, Transition>>(definition: {
  name: string;
  keys: K;
  indexes?: readonly IndexName[];
  ttl?: readonly TimeToLive[];
  stateField?: string;
  transitions?: T;
  lifecycle?: Lifecycle<T>;
}): Aggregate<K, T> {
  const { lifecycle, ...rest } = definition;
  if (lifecycle && lifecycle.name !== definition.name) throw new Error(`Aggregate ${definition.name} has the lifecycle of ${lifecycle.name}`);
  const states = lifecycle ?? defineLifecycle({ name: definition.name, stateField: definition.stateField, transitions: definition.transitions ?? ({} as T) });
  return { indexes: [], ttl: [], ...rest, stateField: states.stateField, transitions: states.transitions };
}

/** The `ttl` attribute (epoch seconds) of an aggregate's `items` written at `now`. */
export function expiryOf(aggregate: Aggregate, items: string, now: Date): number {
  const lifetime = aggregate.ttl.find((t) => t.items === items);
  if (!lifetime) throw new Error(`${aggregate.name}: its ${items} do not expire`);
  return Math.floor(now.getTime() / 1000) + lifetime.seconds;
}

/** Renders access-pattern rows as a Markdown table. */
export function accessPatternTable(patterns: readonly AccessPattern[]): string {
  const rows = patterns.map((r) => `| ${[r.pattern, r.pk, r.sk, r.operation, r.wcu].join(' | ')} |`);
  return ['| Entity / access pattern | pk | sk | Operation | WCU per call |', '|---|---|---|---|---|', ...rows].join('\n');
}
