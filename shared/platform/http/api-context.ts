import type { Context } from 'aws-lambda';
import type { PartnerCaller, ProjectCaller } from '../auth/authenticate';
import type { IdempotencyClaim } from '../idempotency/idempotency-repository';
import type { AuthKind } from '../core/routes';
import type { RouteSpec } from './route';

/** A route's `Idempotency-Key` handling, as its route module declares it. */
export type RouteIdempotency = NonNullable<RouteSpec<AuthKind, undefined, undefined>['idempotency']>;

/** What the API middlewares learn about a request, carried on the Lambda context to the handler. */
export interface ApiContext extends Context {
  api: {
    auth: AuthKind;
    /** The body is JSON (every keyed route, and public routes that declare a body schema). */
    jsonBody: boolean;
    /** Lowercased header names. */
    headers: Record<string, string | undefined>;
    body?: unknown;
    caller?: ProjectCaller | PartnerCaller;
    /** The route's `Idempotency-Key` handling; absent: the header is ignored. */
    idempotency?: RouteIdempotency;
    /** The key the request holds while the route runs. */
    idempotencyClaim?: IdempotencyClaim;
  };
}
