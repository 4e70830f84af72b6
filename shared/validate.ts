import { badRequest } from './errors';
import type * as z from './zod';

type Issue = z.core.$ZodIssue;

/** `['attachments', 2, 'url']` as `attachments[2].url`. */
function formatPath(path: readonly PropertyKey[]): string {
  return path.map((key, i) => (typeof key === 'number' ? `[${key}]` : `${i === 0 ? '' : '.'}${String(key)}`)).join('');
}

/**
 * The problem a request is answered with, in part 7's order, read as a tree: a node's own problem
 * before its children's (a missing required field, a body that is no object, a list's count before
 * its items), and children in the schema's key order (written in the spec's order).
 */
function firstIssue(issues: readonly Issue[], depth = 0): Issue | undefined {
  const own = issues.find((issue) => issue.path.length === depth);
  if (own || issues.length === 0) return own;
  const child = issues[0].path[depth];
  return firstIssue(issues.filter((issue) => issue.path[depth] === child), depth + 1);
}

/**
 * Parses `value` with a request schema; throws the 400 of the first problem, in the spec's order
 * (built by `refuse` where an endpoint answers 400 in a shape of its own, such as INVALID_INPUT).
 */
export function parseRequest<S extends z.ZodMiniType>(schema: S, value: unknown, refuse: (message: string) => Error = (message) => badRequest(message)): z.output<S> {
  const result = schema.safeParse(value);
  if (result.success) return result.data;
  const issue = firstIssue(result.error.issues);
  // Messages of nested fields name the item by its place: `{path}` becomes `attachments[2].url`.
  throw refuse((issue?.message ?? 'Invalid request').replace('{path}', () => formatPath(issue?.path ?? [])));
}
