import type { ApiResult } from '../../../shared/platform/http/api-types';
import { defineRoute, type ApiRoute, type RouteRequest } from '../../../shared/platform/http/route';
import type { AuthKind, HttpMethod } from '../../../shared/platform/core/routes';

/** Routes for apiHandler from route keys and handlers (`{'GET /t/o/{token}': async () => ...}`), of one auth kind, with no schemas. */
export function fakeRoutes(auth: AuthKind, handlers: Record<string, (request: RouteRequest<AuthKind, unknown, unknown>) => Promise<ApiResult>>): ApiRoute[] {
  return Object.entries(handlers).map(([key, handle]) => {
    const [method, path] = key.split(' ');
    return defineRoute({ method: method as HttpMethod, path, auth, summary: key, answers: {}, access: { table: 'read' }, handle: handle as never });
  });
}
