import * as z from '../core/zod';
import type { AuthKind } from '../core/routes';
import type { Answer, ApiRoute } from './route';

/** The error body of project routes (part 7): the message, and flat extra fields some errors carry. */
export const errorBodySchema = z
  .looseObject({ error: z.string().check(z.meta({ examples: ['Missing required fields: recipient_email, sender_email, html_body'] })) })
  .check(z.meta({ id: 'Error', description: 'An error: its message, and the extra fields some errors name (`code`, `campaigns`...)' }));

/** The error body of partner routes: `error`, `code` and `error_code` (the same value), plus flat extra fields. */
export const partnerErrorBodySchema = z
  .looseObject({
    error: z.string(),
    code: z.string().check(z.meta({ examples: ['INVALID_INPUT'] })),
    error_code: z.string(),
  })
  .check(z.meta({ id: 'PartnerError', description: 'A partner route\'s error: its message, and its code twice (`code` and `error_code`)' }));

/** A JSON answer. */
export const json = (schema: z.ZodMiniType, description: string, example?: unknown): Answer => ({ description, schema, ...(example === undefined ? {} : { example }) });

/** An HTML page. */
export const htmlPage = (description: string): Answer => ({ description, schema: z.string(), contentType: 'text/html' });

/** An error answer of a route of this auth kind. */
export const errorAnswer = (auth: AuthKind, description: string): Answer => ({ description, schema: auth === 'partner' ? partnerErrorBodySchema : errorBodySchema });

/** Error answers by status: `errors('project', { 404: 'No such template' })`. */
export function errors(auth: AuthKind, byStatus: Readonly<Record<number, string>>): Record<number, Answer> {
  return Object.fromEntries(Object.entries(byStatus).map(([status, description]) => [status, errorAnswer(auth, description)]));
}

/**
 * The answers every route of its kind can give whatever its handler does, added by the framework:
 * a keyed route's 401, 400 (a body that is not JSON, a bad query...) and 413, the idempotency
 * answers, and the 500 of a fault.
 */
export function frameworkAnswers(route: Pick<ApiRoute, 'auth' | 'body' | 'query' | 'idempotency'>): Record<number, Answer> {
  const { auth } = route;
  const byStatus: Record<number, string> = { 500: 'A fault of the service: the body names the request id, never the cause' };
  if (auth !== 'public') {
    byStatus[401] = 'Missing, malformed or unknown key';
    // Any keyed request's body is parsed, whether or not its route reads one: one that is not JSON,
    // too deep, or names a reserved key is refused before the route runs, and so is one over 5 MB.
    byStatus[400] = 'Invalid request: the first problem, in the order of part 7';
    byStatus[413] = 'Request body over 5 MB';
  }
  if (route.idempotency === 'supported') {
    byStatus[409] = 'A request with this Idempotency-Key is still in progress';
    byStatus[422] = 'This Idempotency-Key was used with another request';
  }
  return errors(auth, byStatus);
}

/** Every answer of a route: its own, and those the framework adds (a route's own description wins). */
export function allAnswers(route: Pick<ApiRoute, 'auth' | 'body' | 'query' | 'idempotency' | 'answers'>): Readonly<Record<number, Answer>> {
  return { ...frameworkAnswers(route), ...route.answers };
}
