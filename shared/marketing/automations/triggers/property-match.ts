/**
 * Whether an event's properties meet an automation's conditions (an event trigger's, a
 * wait_for_event step's): every condition true, each compared as the audience filter compares a
 * lead's attribute (the same ops, numbers as numbers, a missing property matching only `neq` and
 * `not_exists`). A condition names a top-level property.
 */
import { compareAttribute } from '../../../audience/leads/audience-filter';
import { ownValue } from '../../../platform/core/reserved-keys';
import type { PropertyCondition } from '../definition';

/** True when every condition holds of `properties` (no conditions: always). */
export function matchesProperties(conditions: readonly PropertyCondition[] | undefined, properties: Readonly<Record<string, unknown>>): boolean {
  return (conditions ?? []).every((c) => compareAttribute(ownValue(properties, c.property), c.op, c.value));
}
