import { PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { ItemKey, Lifecycle, Transition } from './aggregate-definition';
import type { Db } from './client';
import { writtenUnlessConditionFails } from './conditional-write';
import type { SetCondition } from './set-fields';

/**
 * The writes of the aggregates (aggregate-definition.ts declares them): a gateway turns a declared
 * transition into its conditional write with `applyTransition`; a lost condition answers false.
 */

export * from './aggregate-definition';

/** The fields a transition may set, as its caller gives them (the state itself is set from `to`). */
export type TransitionValues<T extends Transition> = T['set'] extends readonly (infer F extends string)[] ? { readonly [P in F]?: unknown } : Record<never, never>;

/**
 * The UpdateCommand of a declared transition on the item at `key`: condition `state IN (from...)`
 * (and `also`, e.g. a checkpoint's offset or a holder's token), SET the state to `to` and the given
 * fields, REMOVE the declared ones, add 1 to the incremented ones. A field the transition does not
 * declare is a programming error. `also`'s names and values must not be `#state`, `#f<n>`, `#r<n>`,
 * `#i<n>`, `:from<n>`, `:v<n>` or `:one`, which the transition uses.
 */
export function transitionUpdate<A extends Lifecycle, N extends keyof A['transitions'] & string>(
  db: Db,
  aggregate: A,
  name: N,
  key: ItemKey,
  values: TransitionValues<A['transitions'][N]> = {} as TransitionValues<A['transitions'][N]>,
  also?: SetCondition,
): UpdateCommand {
  const transition = aggregate.transitions[name] as Transition;
  const undeclared = Object.keys(values).filter((field) => !(transition.set ?? []).includes(field));
  if (undeclared.length > 0) throw new Error(`Transition ${aggregate.name}.${name} does not set ${undeclared.join(', ')}`);
  // Built here rather than by setFields (the same placeholders): every API function applies the
  // idempotency record's transition, so these lines are in each bundle.
  const names: Record<string, string> = { ...also?.names, '#state': aggregate.stateField };
  const attributeValues: Record<string, unknown> = { ...also?.values };
  const set = (transition.increment ?? []).map((field, i) => ((names[`#i${i}`] = field), (attributeValues[':one'] = 1), `#i${i} = #i${i} + :one`));
  const from = transition.from.map((state, i) => ((attributeValues[`:from${i}`] = state), `:from${i}`));
  Object.entries({ ...(values as Record<string, unknown>), [aggregate.stateField]: transition.to })
    .filter(([, v]) => v !== undefined)
    .forEach(([field, v], i) => set.push(((names[`#f${i}`] = field), (attributeValues[`:v${i}`] = v), `#f${i} = :v${i}`)));
  const remove = (transition.remove ?? []).map((field, i) => ((names[`#r${i}`] = field), `#r${i}`));
  const condition = `#state IN (${from.join(', ')})`;
  return new UpdateCommand({
    TableName: db.tableName,
    Key: key,
    UpdateExpression: `SET ${set.join(', ')}${remove.length > 0 ? ` REMOVE ${remove.join(', ')}` : ''}`,
    ConditionExpression: also ? `${condition} AND (${also.expression})` : condition,
    ExpressionAttributeNames: names,
    ExpressionAttributeValues: attributeValues,
  });
}

/** Runs a declared transition: true when the item moved, false when it was not in a `from` state (or `also` did not hold). */
export function applyTransition<A extends Lifecycle, N extends keyof A['transitions'] & string>(
  db: Db,
  aggregate: A,
  name: N,
  key: ItemKey,
  values?: TransitionValues<A['transitions'][N]>,
  also?: SetCondition,
): Promise<boolean> {
  return writtenUnlessConditionFails(db.doc.send(transitionUpdate(db, aggregate, name, key, values, also)));
}

/** Writes a new item unless one exists at its key: true when written, false when it was already there. */
export function putIfAbsent(db: Db, item: ItemKey & Record<string, unknown>): Promise<boolean> {
  return writtenUnlessConditionFails(db.doc.send(new PutCommand({ TableName: db.tableName, Item: item, ConditionExpression: 'attribute_not_exists(pk)' })));
}
