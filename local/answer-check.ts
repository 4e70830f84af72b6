import { allAnswers } from '../shared/platform/http/answers';
import type { RouteDescription } from '../shared/platform/http/route';

/** An answer that breaks its route's contract: a status the route does not declare, or a body its schema refuses. */
export interface ContractBreach {
  readonly route: string;
  readonly status: number;
  readonly problem: string;
}

/**
 * Checks one answer against its route module (the tests' contract check, docs/api.md): the status
 * must be one the route declares, and a JSON body must pass that status's schema, so that an answer
 * that gains, loses or changes a field fails the test that received it.
 */
export function breachOf(route: RouteDescription, status: number, contentType: string | undefined, body: Buffer): ContractBreach | undefined {
  const answer = allAnswers(route)[status];
  if (!answer) return { route: route.key, status, problem: `status ${status} is not among the route's answers (${Object.keys(allAnswers(route)).join(', ')})` };
  if (!answer.schema) return undefined;
  const declared = answer.contentType ?? 'application/json';
  if (!(contentType ?? '').toLowerCase().startsWith(declared)) return { route: route.key, status, problem: `content type ${contentType} is not ${declared}` };
  if (declared !== 'application/json') return undefined;
  let value: unknown;
  try {
    value = JSON.parse(body.toString('utf8'));
  } catch {
    return { route: route.key, status, problem: 'the body is not JSON' };
  }
  const result = answer.schema.safeParse(value);
  if (result.success) return undefined;
  const issues = result.error.issues.slice(0, 5).map((i) => `${i.path.join('.') || '(body)'}: ${i.message}`);
  return { route: route.key, status, problem: `the body breaks its schema: ${issues.join('; ')}` };
}
