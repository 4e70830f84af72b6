import type { Context } from 'aws-lambda';
import { bucketFunctions, endpointGroups, schedules, workers, type BucketFunctionName, type EndpointGroup, type ScheduleName, type WorkerName } from '../../shared/platform/core/routes';
import { lambdaContext } from '../lambda-context';
import { currentCaller, runAs } from './enforce';

/** The name of a function of the stack (its role's name in the policy map). */
export type FunctionName = EndpointGroup | WorkerName | ScheduleName | BucketFunctionName;

/** Every function of the stack with its entry (relative to the repository root). */
export const functionEntries: Readonly<Record<FunctionName, string>> = Object.fromEntries(
  [endpointGroups, workers, schedules, bucketFunctions].flatMap((group) => Object.entries(group).map(([name, def]) => [name, def.entry])),
) as Record<FunctionName, string>;

/**
 * A function's handler as Lambda runs it: each call runs as the function's role (its AWS calls
 * checked against that role's policy) with a Lambda context of its own unless one is given. What
 * a test uses to invoke a worker or a scheduled job directly.
 */
export function asFunction<TEvent, TResult>(name: FunctionName, handler: (event: TEvent, context?: Context) => Promise<TResult>): (event: TEvent, context?: Context) => Promise<TResult> {
  return (event, context) => runAs(name, () => handler(event, context ?? lambdaContext(`local-${name}`)));
}

/** Runs `work` as function `name`'s role: a worker's own code (a service it calls) run by a test, checked as that worker's. */
export function runAsFunction<T>(name: FunctionName, work: () => T): T {
  return runAs(name, work);
}

/** `code` (a worker's or a job's own code, which a test calls in place of its handler), run as function `name`'s role at every call. */
export function asFunctionCode<TArgs extends unknown[], TResult>(name: FunctionName, code: (...args: TArgs) => TResult): (...args: TArgs) => TResult {
  return (...args) => runAs(name, () => code(...args));
}

const strays: string[] = [];

/**
 * The handler of function `name`, watched: a call that does not run as that function's role (a
 * test calling a worker directly, outside runAs, or under another function's role) still runs as
 * its role, and is recorded, for the test cloud to fail the file at its stop (test/integration/support/function-roles.ts).
 */
export function watchedHandler<TArgs extends unknown[], TResult>(name: FunctionName, handler: (...args: TArgs) => TResult): (...args: TArgs) => TResult {
  return (...args) => {
    const caller = currentCaller();
    if (caller?.kind === 'role' && caller.name === name) return handler(...args);
    const who = caller === undefined ? 'outside runAs' : caller.kind === 'role' ? `as the role of ${caller.name}` : `as ${caller.service}`;
    strays.push(`The ${name} handler was called ${who}: invoke it as its function (asFunction('${name}', handler), local/iam/function-roles.ts)`);
    return runAs(name, () => handler(...args));
  };
}

/** The handler calls that did not run as their function's role since the last call (oldest first). */
export function takeStrayInvocations(): string[] {
  return strays.splice(0, strays.length);
}
