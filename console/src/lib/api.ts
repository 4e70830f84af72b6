/**
 * The console's API client: the typed client's paths over openapi-fetch, calling the API of the
 * origin that served the console. The session cookie (HttpOnly, SameSite=Strict) authenticates;
 * the X-Mailroom-Console header is what the API asks of a cookie-authenticated request, which a
 * cross-site form or image can never send (CSRF).
 */
import createClient, { type Middleware } from 'openapi-fetch';
import type { components, paths } from '../../../clients/typescript/src/schema';

export type { components, paths };
export type Schemas = components['schemas'];

/** The header that marks a request as the console's own. */
export const CONSOLE_HEADER = 'X-Mailroom-Console';

const listeners = new Set<() => void>();

/** Called whenever the API answers 401: the session ended (expired, signed out, key rotated). */
export function onSignedOut(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

const watchSession: Middleware = {
  onResponse({ response }) {
    if (response.status === 401) listeners.forEach((l) => l());
    return undefined;
  },
};

/** The typed client every page calls the API with. */
export const api = createClient<paths>({ baseUrl: location.origin, headers: { [CONSOLE_HEADER]: '1' }, credentials: 'same-origin' });
api.use(watchSession);

/** An API refusal as the console shows it: the status, the message and the code the API gave. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly code?: string,
    readonly body?: unknown,
  ) {
    super(message);
  }
}

/** The answer of a typed call, or an ApiError carrying the API's own message. */
export async function unwrap<T>(call: Promise<{ data?: T; error?: unknown; response: Response }>): Promise<T> {
  const { data, error, response } = await call;
  if (response.ok) return data as T;
  // Project routes answer {error: message, code?...}; partner routes add code and error_code.
  const body = (error ?? {}) as { error?: unknown; message?: unknown; code?: unknown };
  const message = typeof body.error === 'string' ? body.error : typeof body.message === 'string' ? body.message : `${response.status} ${response.statusText}`;
  const code = typeof body.code === 'string' ? body.code : undefined;
  throw new ApiError(response.status, message, code, error);
}
