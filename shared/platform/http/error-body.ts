import { AppError } from '../core/errors';
import type { AuthKind } from '../core/routes';

/**
 * The one mapping from errors to responses. Project routes answer `{error, ...extra}`; partner
 * routes add `code` and `error_code` (the same value). Unknown errors become a generic 500 that
 * carries the request id, never the message or stack.
 */
export function errorResponse(error: unknown, auth: AuthKind, requestId: string): { status: number; body: Record<string, unknown> } {
  if (error instanceof AppError) {
    const body: Record<string, unknown> = { error: error.message, ...error.extra };
    if (auth === 'partner') {
      const code = error.code ?? defaultCode(error.status);
      body.code = code;
      body.error_code = code;
    }
    return { status: error.status, body };
  }
  const body: Record<string, unknown> = { error: 'Internal server error', request_id: requestId };
  if (auth === 'partner') Object.assign(body, { code: 'INTERNAL_ERROR', error_code: 'INTERNAL_ERROR' });
  return { status: 500, body };
}

function defaultCode(status: number): string {
  switch (status) {
    case 400:
      return 'INVALID_INPUT';
    case 401:
      return 'UNAUTHORIZED';
    case 403:
      return 'FORBIDDEN';
    case 404:
      return 'NOT_FOUND';
    case 409:
      return 'CONFLICT';
    case 422:
      return 'UNPROCESSABLE';
    default:
      return 'ERROR';
  }
}
