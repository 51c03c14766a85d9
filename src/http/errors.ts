import { validatorCompiler } from './validation.js';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import FindMyWay, { type HTTPMethod } from 'find-my-way';
import { accountStoreUnavailable } from '../accounts/store-unavailable.js';
import { limits } from '../limits.js';
import { InsufficientDataError } from '../valuation/errors.js';
import { QueueRefusal } from '../work/fair-queue.js';
import { QueryDeadlineExceeded } from '../work/query-deadline.js';
import { AppError, PROBLEM_MEDIA_TYPE, problemBody, type ErrorCode } from './problem.js';
import { invalidFields } from './field-errors.js';
import { jsonTypesOf } from './json-body.js';
import { describeValidation } from './validation.js';

/** Fastify's own request errors, translated into the service's closed list of codes. */
const FASTIFY_CODES: Record<string, ErrorCode> = {
  FST_ERR_CTP_INVALID_MEDIA_TYPE: 'unsupported_media_type',
  FST_ERR_CTP_BODY_TOO_LARGE: 'payload_too_large',
  FST_ERR_CTP_EMPTY_JSON_BODY: 'invalid_json',
  FST_ERR_CTP_INVALID_JSON_BODY: 'invalid_json',
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: 'bad_request',
  FST_ERR_BAD_URL: 'bad_request',
  FST_ERR_MAX_PARAM_LENGTH: 'bad_request',
  FST_ERR_RATE_LIMIT_EXCEEDED: 'rate_limited',
};

const STATUS_CODES_FALLBACK: Partial<Record<number, ErrorCode>> = {
  400: 'bad_request',
  401: 'unauthenticated',
  403: 'forbidden',
  404: 'not_found',
  405: 'method_not_allowed',
  406: 'not_acceptable',
  413: 'payload_too_large',
  415: 'unsupported_media_type',
  429: 'rate_limited',
  503: 'overloaded',
};

/** Fastify's messages for these echo the whole URL back; ours say what is wrong. */
const FASTIFY_DETAILS: Record<string, string> = {
  FST_ERR_MAX_PARAM_LENGTH: `A path parameter is longer than ${String(limits.pathParamChars)} characters`,
  FST_ERR_BAD_URL: 'The URL is not valid (bad percent-encoding)',
  // Fastify names application/json whatever JSON type the request has (merge-patch+json too).
  FST_ERR_CTP_EMPTY_JSON_BODY: 'The body is empty: a JSON body is required with this Content-Type',
};

const DETAILS: Partial<Record<ErrorCode, string>> = {
  payload_too_large: `Request body exceeds the limit of ${limits.jsonBodyBytes} bytes`,
};

/**
 * Turns anything thrown in a request into an AppError; unknown errors become a bare 500.
 * `method`, where known, words the media-type refusal for the request's own method.
 */
export function toAppError(error: FastifyError, method?: string): AppError {
  if (error instanceof AppError) return error;
  // The valuation model's own refusal: the request was valid, the market data cannot answer it.
  if (error instanceof InsufficientDataError)
    return new AppError('insufficient_data', error.message);
  // The budget for costly work: too much of the organization's waiting, or no turn in time.
  if (error instanceof QueueRefusal) {
    return new AppError(
      error.reason === 'organization_busy' ? 'rate_limited' : 'overloaded',
      error.message,
      { headers: { 'retry-after': String(limits.work.retryAfterSeconds) } },
    );
  }
  if (error instanceof QueryDeadlineExceeded) {
    return new AppError(
      'overloaded',
      `The request's market queries took longer than ${String(error.deadlineMs / 1000)} s and were stopped; retry later or ask for less`,
      { headers: { 'retry-after': String(limits.work.retryAfterSeconds) } },
    );
  }
  if (accountStoreUnavailable(error)) {
    return new AppError(
      'overloaded',
      'The account database cannot take the request now (busy or unreachable); try again later',
      { headers: { 'retry-after': String(limits.accountStore.retryAfterSeconds) }, cause: error },
    );
  }
  if (error.validation) {
    const { detail, errors } = describeValidation(
      error.validation as never,
      error.validationContext,
    );
    return invalidFields(errors, { detail });
  }
  const status = error.statusCode ?? 500;
  if (status >= 500) return new AppError('internal', 'Internal server error');
  if (error instanceof SyntaxError) {
    return new AppError('invalid_json', `Body is not valid JSON: ${error.message}`);
  }
  const code = FASTIFY_CODES[error.code] ?? STATUS_CODES_FALLBACK[status] ?? 'bad_request';
  // The JSON types the method takes (a PATCH a merge patch too), as the parsers were registered.
  if (code === 'unsupported_media_type')
    return new AppError(
      code,
      `Content-Type must be ${jsonTypesOf(method ?? '')
        .reverse()
        .join(' or ')}`,
    );
  return new AppError(code, FASTIFY_DETAILS[error.code] ?? DETAILS[code] ?? error.message);
}

export function sendProblem(reply: FastifyReply, error: AppError): FastifyReply {
  return reply
    .code(error.status)
    .headers(error.headers)
    .type(PROBLEM_MEDIA_TYPE)
    .send(problemBody(error, reply.request.id));
}

const METHODS = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'] as const;

/**
 * One error handler for the whole app: problem+json for everything, 5xx bodies say nothing
 * internal, and the log has the full error keyed by the request id.
 */
export function registerErrorHandling(
  app: FastifyInstance,
  /** Answers a path no route takes itself, where it has its own 404 (true if it did). */
  ownNotFound: (url: string, reply: FastifyReply) => boolean = () => false,
): void {
  // A second router that only knows paths, to tell "wrong method" (405) from "no such path" (404).
  // Each route is kept with what its path parameters must be: `POST /dossiers/search` is no
  // path of `GET /dossiers/{id}` ("search" is no id), so it is a 404, not a 405 whose Allow
  // names methods that would refuse that path too.
  const paths = FindMyWay();
  app.addHook('onRoute', (route) => {
    const methods = Array.isArray(route.method) ? route.method : [route.method];
    const schema = route.schema?.params;
    for (const method of methods) {
      const upper = method.toUpperCase() as HTTPMethod;
      const fits =
        schema === undefined || schema === null
          ? () => true
          : paramsFit(validatorCompiler({ schema, method, url: route.url, httpPart: 'params' }));
      if (!paths.hasRoute(upper, route.url)) paths.on(upper, route.url, () => undefined, { fits });
    }
  });
  /** Whether `path` is a path of a route of `method` whose parameters it fits. */
  const takes = (method: HTTPMethod, path: string): boolean => {
    const found = paths.find(method, path);
    if (found === null) return false;
    const { fits } = found.store as { fits: (params: object) => boolean };
    return fits({ ...found.params });
  };

  /** A 405 for a path whose routes take other methods, with those methods in `Allow`. */
  const wrongMethod = (method: string, path: string, allowed: readonly string[]) =>
    new AppError('method_not_allowed', `${method} is not allowed on ${path}`, {
      headers: { allow: allowed.join(', ') },
    });

  app.setErrorHandler((error: FastifyError, request: FastifyRequest, reply: FastifyReply) => {
    // `GET /templates/list` is routed to `GET /templates/{id}` with the id "list", whose
    // refusal ("must match format uuid") hides what is wrong: the path is a route of its own
    // (no parameters) for other methods, so the method is what is wrong.
    const path = request.url.split('?')[0] ?? '/';
    const ownRoute =
      error.validationContext === 'params'
        ? METHODS.filter((m) => {
            const found = m !== request.method ? paths.find(m, path) : null;
            return found !== null && Object.keys(found.params).length === 0;
          })
        : [];
    const appError =
      ownRoute.length > 0
        ? wrongMethod(request.method, path, ownRoute)
        : toAppError(error, request.method);
    // Shedding load is the server working as meant: a warning without a stack, which would
    // only flood the log while the server is busiest. A 501 answers what a client asked for (a
    // transfer coding, CONNECT), not a fault here: a refusal, so that clients cannot write
    // error-level entries at will.
    const fault = appError.status >= 500 && appError.code !== 'not_implemented';
    if (appError.code === 'overloaded') {
      const cause = appError.cause instanceof Error ? appError.cause.message : undefined;
      request.log.warn({ code: appError.code, detail: appError.detail, cause }, 'request shed');
    } else if (fault) request.log.error({ err: error }, 'request failed');
    else request.log.info({ code: appError.code, detail: appError.detail }, 'request refused');
    return sendProblem(reply, appError);
  });

  app.setNotFoundHandler((request: FastifyRequest, reply: FastifyReply) => {
    const pathOnly = request.url.split('?')[0] ?? '/';
    // A route of this method that answers "not found" itself (a missing file under
    // /docs/static/) is a 404: the method is right, the thing is missing.
    const routed = paths.find(request.method as HTTPMethod, pathOnly) !== null;
    const allowed = routed ? [] : METHODS.filter((m) => m !== request.method && takes(m, pathOnly));
    if (allowed.length > 0)
      return sendProblem(reply, wrongMethod(request.method, pathOnly, allowed));
    if (ownNotFound(request.url, reply)) return reply;
    return sendProblem(reply, new AppError('not_found', `No route ${request.method} ${pathOnly}`));
  });
}

/** A compiled parameter validator as a yes or no (Fastify's compilers may answer either). */
function paramsFit(validate: (data: unknown) => unknown): (params: object) => boolean {
  return (params) => {
    const result = validate(params);
    return (
      result === true || (typeof result === 'object' && result !== null && !('error' in result))
    );
  };
}
