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
}

/** What a route function answers: a status, a JSON body, extra headers. */
export interface ApiResult {
  readonly status: number;
  readonly body: unknown;
  readonly headers?: Readonly<Record<string, string>>;
}

/** One route's implementation. */
export type RouteFunction = (request: ApiRequest) => Promise<ApiResult>;

/** The caller of a project route (the middleware guarantees it). */
export function projectCaller(request: ApiRequest): ProjectCaller {
  const caller = request.caller;
  if (!caller || caller.kind !== 'project') throw new Error('Route needs a project caller');
  return caller;
}

/** The public base URL the caller reached us at (for links such as the verification page). */
export function publicBaseUrl(request: ApiRequest): string | undefined {
  const host = request.headers['x-forwarded-host'] ?? request.headers.host;
  if (!host) return undefined;
  const proto = request.headers['x-forwarded-proto'] ?? (/^(localhost|127\.0\.0\.1)(:|$)/.test(host) ? 'http' : 'https');
  return `${proto}://${host}`;
}
