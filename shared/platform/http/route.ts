import type * as z from '../core/zod';
import type { PartnerCaller, ProjectCaller } from '../auth/authenticate';
import type { FunctionAccess } from '../core/function-access';
import type { AuthKind, EndpointGroup, HttpMethod } from '../core/routes';
import type { ApiResult } from './api-types';

/**
 * The throttle class of a route anyone can call without a key (lib/api.ts sizes each): the
 * verification page (its button calls SES), the unsubscribe and view-in-browser pages, and the open
 * pixel and click redirect. Key routes share the stage's limit.
 */
export type ThrottleClass = 'verify' | 'links' | 'tracking';

/** One answer a route can give: its body's schema, media type and a realistic example. */
export interface Answer {
  /** One line for the docs. */
  readonly description: string;
  /** The body's schema; absent for an answer without a body (a redirect). */
  readonly schema?: z.ZodMiniType;
  /** The body's media type. @default application/json */
  readonly contentType?: string;
  /** A realistic body (checked against `schema` in CI). */
  readonly example?: unknown;
}

/** Who calls a route of this auth kind. */
export type CallerOf<A extends AuthKind> = A extends 'project' ? ProjectCaller : A extends 'partner' ? PartnerCaller : undefined;

type Parsed<S, Otherwise> = S extends z.ZodMiniType ? z.output<S> : Otherwise;

/** A request as a route's handler sees it: authenticated, its body and query already validated. */
export interface RouteRequest<A extends AuthKind, B, Q> {
  /** The body, parsed with the route's `body` schema; a public route without one gets the raw text. */
  readonly body: Parsed<B, A extends 'public' ? string | undefined : undefined>;
  /** The query, parsed with the route's `query` schema; without one, the raw parameters. */
  readonly query: Parsed<Q, Readonly<Record<string, string | undefined>>>;
  /** Path parameters, decoded (`{id}` as `params.id`). */
  readonly params: Readonly<Record<string, string>>;
  /** Lowercased header names. */
  readonly headers: Readonly<Record<string, string | undefined>>;
  /** The request's cookies (`name=value` each), as API Gateway's payload 2.0 gives them apart from the headers. */
  readonly cookies?: readonly string[];
  readonly caller: CallerOf<A>;
  readonly requestId: string;
  /** The domain the request reached, as API Gateway established it (never a caller's header). */
  readonly domainName?: string;
}

/** Everything about one route: how it is reached, what it takes and answers, what it may touch, and its handler. */
export interface RouteSpec<A extends AuthKind, B extends z.ZodMiniType | undefined, Q extends z.ZodMiniType | undefined> {
  readonly method: HttpMethod;
  /** API Gateway path syntax: `{name}` for a path parameter. */
  readonly path: string;
  readonly auth: A;
  /**
   * `Idempotency-Key` handling (part 8): `supported` replays cached answers; `refused` answers 400
   * to a request that carries the header. Absent: the header is ignored.
   */
  readonly idempotency?: 'supported' | 'refused';
  /** Public routes only: the throttle class API Gateway applies to the route on its own. */
  readonly throttle?: ThrottleClass;
  /** One line for the docs. */
  readonly summary: string;
  /** More words for the docs (Markdown). */
  readonly description?: string;
  /** The JSON body; the handler runs only on a body it accepts, refused with its first problem (part 7). */
  readonly body?: B;
  /** A realistic request body (checked against `body` in CI). */
  readonly bodyExample?: unknown;
  /** The query string (an object of strings), validated like the body. */
  readonly query?: Q;
  /** How a body or query problem is refused when not with the route kind's 400 (partner routes' INVALID_INPUT). */
  readonly refuse?: (message: string) => Error;
  /** Every status the route answers, with its body. */
  readonly answers: Readonly<Record<number, Answer>>;
  /** What the handler may touch in AWS and the settings it reads; the group's function gets the union. */
  readonly access: FunctionAccess;
  /** The route's work, on a validated request. */
  handle(request: RouteRequest<A, B, Q>): Promise<ApiResult>;
}

/** A route as the dispatch, the route table, the document and the grants see it. */
export interface ApiRoute extends Omit<RouteSpec<AuthKind, z.ZodMiniType | undefined, z.ZodMiniType | undefined>, 'handle'> {
  /** `POST /v1/send-email`: the key API Gateway puts on the event. */
  readonly key: string;
  handle(request: RouteRequest<AuthKind, unknown, unknown>): Promise<ApiResult>;
}

/** A route bound to the endpoint group (one Lambda function) that serves it. */
export interface GroupRoute extends ApiRoute {
  readonly group: EndpointGroup;
}

/** A route as the route table describes it: all of its module but its handler. */
export type RouteDescription = Omit<GroupRoute, 'handle'>;

/** Defines one route (one module each: functions/<group>/routes/). */
export function defineRoute<A extends AuthKind, B extends z.ZodMiniType | undefined = undefined, Q extends z.ZodMiniType | undefined = undefined>(
  spec: RouteSpec<A, B, Q>,
): ApiRoute {
  return { ...spec, key: `${spec.method} ${spec.path}` } as unknown as ApiRoute;
}

/** The routes one group's function serves, bound to it (functions/<group>/routes/index.ts). */
export function groupRoutes(group: EndpointGroup, routes: readonly ApiRoute[]): readonly GroupRoute[] {
  const keys = new Set<string>();
  for (const route of routes) {
    if (keys.has(route.key)) throw new Error(`Route ${route.key} is listed twice in group ${group}`);
    keys.add(route.key);
  }
  return routes.map((route) => ({ ...route, group }));
}
