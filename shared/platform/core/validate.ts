import { AppError, badRequest } from './errors';
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

/** What a refusal carries besides its message, where a route's answers name the problem by a code of their own. */
export interface Refusal {
  readonly code: string;
  readonly status: number;
  /** Flat extra fields of the error body (the refused value, where the spec's answer names it). */
  readonly extra?: Record<string, unknown>;
}

/**
 * The params of a custom check (`z.refine(fn, { message, params: refusedAs('MISSING_NAME') })`, or an
 * issue pushed by `z.superRefine`) whose refusal carries `code` and `status` rather than the route's
 * default: zod's own issues carry only a message, so the code rides on the check's params.
 */
export const refusedAs = (code: string, status = 400): { refusal: Refusal } => ({ refusal: { code, status } });

/**
 * Parses `value` with a request schema; throws the 400 of the first problem, in the spec's order
 * (built by `refuse` where an endpoint answers 400 in a shape of its own, such as INVALID_INPUT; a
 * check made with `refusedAs` gives its own code and status instead).
 */
export function parseRequest<S extends z.ZodMiniType>(schema: S, value: unknown, refuse: (message: string) => Error = (message) => badRequest(message)): z.output<S> {
  const result = schema.safeParse(value);
  if (result.success) return result.data;
  const issue = firstIssue(result.error.issues);
  // Messages of nested fields name the item by its place: `{path}` becomes `attachments[2].url`.
  const message = (issue?.message ?? 'Invalid request').replace('{path}', () => formatPath(issue?.path ?? []));
  const refusal = issue?.code === 'custom' ? (issue.params as { refusal?: Refusal } | undefined)?.refusal : undefined;
  throw refusal ? new AppError(refusal.status, message, refusal.code, refusal.extra) : refuse(message);
}
