/**
 * The one error type. Services throw it with the spec's status and message; one middleware maps it
 * to a response body. Anything else becomes a generic 500.
 */
export class AppError extends Error {
  constructor(
    readonly status: number,
    message: string,
    /** Machine-readable code; partner endpoints echo it as `code` and `error_code`. */
    readonly code?: string,
    /** Flat extra fields for the response body. */
    readonly extra: Record<string, unknown> = {},
    options?: { cause?: unknown },
  ) {
    super(message, options);
    this.name = 'AppError';
  }
}

/** 400: the request is malformed or breaks a rule. */
export const badRequest = (message: string, code?: string, extra?: Record<string, unknown>) =>
  new AppError(400, message, code, extra);

/** 401: no usable credentials. */
export const unauthorized = (message: string) => new AppError(401, message);

/** 403: authenticated, but this action is not allowed. */
export const forbidden = (message: string, code?: string) => new AppError(403, message, code);

/** 404: absent, or belonging to someone else (never 403 for another tenant's id). */
export const notFound = (message: string, code = 'NOT_FOUND') => new AppError(404, message, code);

/** 409: the state does not allow it. */
export const conflict = (message: string, code?: string, extra?: Record<string, unknown>, cause?: unknown) =>
  new AppError(409, message, code, extra, { cause });

/** 413: the request body is larger than the API takes. */
export const payloadTooLarge = (message: string, code?: string) => new AppError(413, message, code);

/** 422: well-formed but unprocessable. */
export const unprocessable = (message: string, code?: string, extra?: Record<string, unknown>) =>
  new AppError(422, message, code, extra);

/**
 * 409: a conditional write lost a race that no service turned into its own answer: the state changed
 * under the request, which a retry resolves (a conflict, not a fault of the service).
 */
export const concurrentChange = () => new AppError(409, 'The resource was changed by a concurrent request; retry', 'CONFLICT');
