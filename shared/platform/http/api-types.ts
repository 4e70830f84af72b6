import type { PartnerCaller, ProjectCaller } from '../auth/authenticate';

/** A request as a route function sees it: parsed, normalised and authenticated. */
export interface ApiRequest<C = ProjectCaller | PartnerCaller | undefined> {
  readonly body: unknown;
  readonly query: Readonly<Record<string, string | undefined>>;
  readonly params: Readonly<Record<string, string | undefined>>;
  /** Lowercased header names. */
  readonly headers: Readonly<Record<string, string | undefined>>;
  readonly caller: C;
  readonly requestId: string;
  /**
   * The domain the request reached, as API Gateway established it (requestContext.domainName: the
   * custom domain or the execute-api host), never a header the caller chose.
   */
  readonly domainName?: string;
}

/** What a route function answers: a status, a JSON body, extra headers. */
export interface ApiResult {
  readonly status: number;
  readonly body: unknown;
  readonly headers?: Readonly<Record<string, string>>;
  /** Set-Cookie values (API Gateway's payload 2.0 carries them apart from the headers). */
  readonly cookies?: readonly string[];
}

/** One route's implementation. */
export type RouteFunction = (request: ApiRequest) => Promise<ApiResult>;

/** The caller of a project route (the middleware guarantees it). */
export function projectCaller(request: ApiRequest): ProjectCaller {
  const caller = request.caller;
  if (!caller || caller.kind !== 'project') throw new Error('Route needs a project caller');
  return caller;
}

/**
 * The public base URL of this deployment as the request reached it (for the OpenAPI document's
 * server and links such as the verification page). Built from the request context, never from
 * X-Forwarded-Host, X-Forwarded-Proto or Host: a caller's headers would otherwise put a host of
 * their choosing into documents and links. API Gateway serves only HTTPS; the local cloud, on
 * loopback, plain HTTP.
 */
export function publicBaseUrl(request: Pick<ApiRequest, 'domainName'>): string | undefined {
  const host = request.domainName;
  if (!host) return undefined;
  const proto = /^(localhost|127\.0\.0\.1|\[::1\])(:|$)/.test(host) ? 'http' : 'https';
  return `${proto}://${host}`;
}
