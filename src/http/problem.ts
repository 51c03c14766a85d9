import { STATUS_CODES } from 'node:http';

/**
 * The closed list of error codes a client can see, each with its HTTP status. Clients switch on
 * `code`; adding one is an API change and belongs in the README's error table.
 */
export const ERROR_STATUS = {
  validation_failed: 400,
  invalid_json: 400,
  bad_request: 400,
  unknown_division: 400,
  unsupported_country: 400,
  unauthenticated: 401,
  forbidden: 403,
  not_found: 404,
  method_not_allowed: 405,
  not_acceptable: 406,
  request_timeout: 408,
  conflict: 409,
  precondition_failed: 412,
  payload_too_large: 413,
  unsupported_media_type: 415,
  range_not_satisfiable: 416,
  expectation_failed: 417,
  insufficient_data: 422,
  rate_limited: 429,
  headers_too_large: 431,
  internal: 500,
  not_implemented: 501,
  overloaded: 503,
} as const;

export type ErrorCode = keyof typeof ERROR_STATUS;
export const ERROR_CODES = Object.keys(ERROR_STATUS) as ErrorCode[];

export interface FieldError {
  /** JSON pointer into the request part that failed, e.g. `/filters/radius`. */
  path: string;
  message: string;
}

export interface ProblemOptions {
  errors?: FieldError[];
  headers?: Record<string, string>;
  /** What went wrong inside, for the log only (never in the answer). */
  cause?: Error;
}

/** The one error type the service throws on purpose; the error handler renders it. */
export class AppError extends Error {
  readonly status: number;
  readonly errors: FieldError[] | undefined;
  readonly headers: Record<string, string>;

  constructor(
    readonly code: ErrorCode,
    readonly detail: string,
    options: ProblemOptions = {},
  ) {
    super(detail, options.cause ? { cause: options.cause } : undefined);
    this.name = 'AppError';
    this.status = ERROR_STATUS[code];
    this.errors = options.errors;
    this.headers = options.headers ?? {};
  }
}

/** The media type of every error answer. */
export const PROBLEM_MEDIA_TYPE = 'application/problem+json';

/** RFC 9457 problem details, plus `code`, `message` (= detail, for older clients) and `requestId`. */
export interface Problem {
  type: string;
  title: string;
  status: number;
  code: ErrorCode;
  detail: string;
  message: string;
  errors?: FieldError[];
  requestId: string;
}

export function problemBody(error: AppError, requestId: string): Problem {
  return {
    type: 'about:blank',
    title: STATUS_CODES[error.status] ?? 'Error',
    status: error.status,
    code: error.code,
    detail: error.detail,
    message: error.detail,
    ...(error.errors ? { errors: error.errors } : {}),
    requestId,
  };
}

export const notFound = (what: string): AppError => new AppError('not_found', `${what} not found`);
