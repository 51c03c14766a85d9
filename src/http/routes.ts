import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type {
  ContextConfigDefault,
  FastifyInstance,
  FastifyRequest,
  HTTPMethods,
  RawReplyDefaultExpression,
  RawRequestDefaultExpression,
  RawServerDefault,
  RouteGenericInterface,
  RouteHandlerMethod,
} from 'fastify';
import type { TSchema } from 'typebox';
import type { AuthMode } from './auth.js';
import { checkHook } from './check-hook.js';
import { emptyArraysOfBody } from './empty-array-body.js';
import { errorResponses, type ErrorStatus } from './schemas.js';

/** What a route declares besides its handler: its OpenAPI text, its schemas and its answers. */
export interface RouteSpec {
  /** The operation's name in the OpenAPI document (what generated clients call their method). */
  operationId: string;
  summary: string;
  description?: string;
  params?: TSchema;
  querystring?: TSchema;
  body?: TSchema;
  /** The body's media types in the OpenAPI document, where not only `application/json`. */
  consumes?: string[];
  /** The answers that are not errors, by status (`{ 200: … }`, `{ 204: … }`). */
  response: Record<number, TSchema>;
  /**
   * The error statuses the route answers beyond those every route has (src/http/route-errors.ts);
   * `401` comes with the auth mode.
   */
  errors?: ErrorStatus[];
  /** Only where the route differs from the rest of its feature. */
  auth?: AuthMode;
  /** A page for people: its path and query values are not refused before it (json-guards.ts). */
  page?: boolean;
  tags?: string[];
  /**
   * A check of the raw request before its schemas are applied (throws the refusal): for a rule
   * between fields that should be said before the schema's complaints about either field. It
   * reads the body with PHP's empty arrays already taken as objects (empty-array-body.ts).
   */
  check?: (request: FastifyRequest) => void;
}

/** What the routes of one feature have in common. */
export interface FeatureRouteDefaults {
  auth: AuthMode;
  tags: string[];
}

type Handler<S extends RouteSpec> = RouteHandlerMethod<
  RawServerDefault,
  RawRequestDefaultExpression,
  RawReplyDefaultExpression,
  RouteGenericInterface,
  ContextConfigDefault,
  S,
  TypeBoxTypeProvider
>;

type Declare = <S extends RouteSpec>(url: string, spec: S, handler: Handler<S>) => void;

/** Declares routes one method each; the request and the answer are typed by the spec's schemas. */
export interface FeatureRoutes {
  get: Declare;
  post: Declare;
  put: Declare;
  patch: Declare;
  delete: Declare;
}

/**
 * The routes of one feature on `app` (or a scope of it): the auth mode and the OpenAPI tags are
 * said once for the feature, and each route's error statuses are turned into problem responses
 * here, so a route declaration holds only what is its own.
 */
export function featureRoutes(app: FastifyInstance, defaults: FeatureRouteDefaults): FeatureRoutes {
  const typed = app.withTypeProvider<TypeBoxTypeProvider>();
  const declare =
    (method: HTTPMethods): Declare =>
    (url, spec, handler) => {
      const {
        auth = defaults.auth,
        tags = defaults.tags,
        errors = [],
        response,
        page = false,
        check,
        ...schema
      } = spec;
      typed.route({
        method,
        url,
        config: { auth, page },
        // PHP's empty objects (`[]`) become objects before any check reads the body.
        preValidation: [
          ...('body' in schema ? [checkHook(emptyArraysOfBody(schema.body))] : []),
          ...(check ? [checkHook(check)] : []),
        ],
        schema: { tags, ...schema, response: { ...response, ...errorResponses(...errors) } },
        handler: handler as RouteHandlerMethod,
      });
    };
  return {
    get: declare('GET'),
    post: declare('POST'),
    put: declare('PUT'),
    patch: declare('PATCH'),
    delete: declare('DELETE'),
  };
}
