import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { AccountDb } from '../accounts/database.js';
import { TokenCache } from '../accounts/token-cache.js';
import { cacheTokenOwners } from '../accounts/tokens.js';
import { limits } from '../limits.js';
import { resolveCaller, unauthenticated, type Caller } from './caller.js';
import { AppError } from './problem.js';
import { errorResponses } from './schemas.js';

/**
 * How a route authenticates its caller:
 * - `none`: public (login, health, docs);
 * - `bearer`: `Authorization: Bearer <token>` only;
 * - `bearer-or-query`: also `?access_token=` (only where the contract names it).
 */
export type AuthMode = 'none' | 'bearer' | 'bearer-or-query';

/** One served route and how it authenticates. */
export interface CatalogRoute {
  method: string;
  url: string;
  auth: AuthMode;
}

declare module 'fastify' {
  interface FastifyContextConfig {
    auth?: AuthMode;
  }
  interface FastifyRequest {
    caller: Caller | null;
  }
  interface FastifyInstance {
    /** Every API route with its auth mode, in registration order: what security checks walk. */
    routeCatalog: CatalogRoute[];
  }
}

const QUERY_TOKEN = 'access_token';

/** Routes outside these prefixes (the docs page's assets) need not declare an auth mode. */
const API_PREFIXES = ['/api/', '/auth/', '/health', '/ready'];

/** Credentials sent more than once are refused, not resolved by "the first one wins". */
function ambiguous(): AppError {
  return new AppError(
    'bad_request',
    `Send one access token, once: in the Authorization header or the ${QUERY_TOKEN} query parameter`,
    { headers: { 'www-authenticate': 'Bearer realm="api", error="invalid_request"' } },
  );
}

function authorizationHeaders(request: FastifyRequest): number {
  const raw = request.raw.rawHeaders;
  let count = 0;
  for (let i = 0; i < raw.length; i += 2) {
    if (raw[i]?.toLowerCase() === 'authorization') count += 1;
  }
  return count;
}

function bearerFrom(request: FastifyRequest, mode: AuthMode): string | undefined {
  const query = request.query as Record<string, unknown> | undefined;
  const fromQuery = query?.[QUERY_TOKEN];
  const header = request.headers.authorization;
  if (
    authorizationHeaders(request) > 1 ||
    // Two headers joined into one, as a proxy may send them: a token never has a comma.
    header?.includes(',') === true ||
    Array.isArray(fromQuery) ||
    (fromQuery !== undefined && header !== undefined)
  ) {
    throw ambiguous();
  }
  if (fromQuery !== undefined && query) {
    if (mode !== 'bearer-or-query') {
      throw unauthenticated(
        `The ${QUERY_TOKEN} query parameter is not accepted here; send Authorization: Bearer <token>`,
      );
    }
    // Dropped before validation: the route's own query schema never sees credentials.
    Reflect.deleteProperty(query, QUERY_TOKEN);
  }
  if (header !== undefined) {
    const token = bearerToken(header);
    if (token === undefined) {
      throw unauthenticated('The Authorization header must be "Bearer <token>"', false);
    }
    return token;
  }
  return typeof fromQuery === 'string' ? fromQuery : undefined;
}

/** The token of an `Authorization: Bearer <token>` header (the scheme in any case, RFC 9110
 * §11.1), or undefined where the header is not of that form. */
export function bearerToken(header: string): string | undefined {
  return /^Bearer +([^\s]+) *$/i.exec(header)?.[1];
}

const declaresBody = (request: FastifyRequest): boolean =>
  request.headers['transfer-encoding'] !== undefined ||
  Number(request.headers['content-length'] ?? 0) > 0;

/**
 * Authenticates requests by token; `now` is the clock token expiry (and the owner cache's
 * lifetime, `tokenCacheMs`) is measured against.
 */
export function registerAuth(
  app: FastifyInstance,
  db: AccountDb,
  now: () => Date,
  tokenCacheMs: number,
): void {
  cacheTokenOwners(
    db,
    new TokenCache(tokenCacheMs, limits.tokenCache.maxEntries, () => now().getTime()),
  );
  app.decorateRequest('caller', null);
  const catalog: CatalogRoute[] = [];
  app.decorate('routeCatalog', catalog);

  // Secure by default: an API route that forgets to say how it authenticates fails at start.
  app.addHook('onRoute', (route) => {
    const mode = route.config?.auth;
    if (mode === undefined) {
      if (API_PREFIXES.some((p) => route.url.startsWith(p))) {
        throw new Error(`Route ${route.url} must declare config.auth`);
      }
      return;
    }
    for (const method of [route.method].flat()) {
      // HEAD twins of GET routes are answered by the same handler.
      if (method !== 'HEAD') catalog.push({ method, url: route.url, auth: mode });
    }
    if (mode === 'none' || !route.schema) return;
    route.schema.security =
      mode === 'bearer' ? [{ bearerAuth: [] }] : [{ bearerAuth: [] }, { accessTokenQuery: [] }];
    route.schema.response = { ...errorResponses(401), ...(route.schema.response as object) };
  });

  app.addHook('onRequest', async (request, reply) => {
    const mode = request.routeOptions.config.auth ?? 'none';
    if (mode === 'none') return;
    try {
      const secret = bearerFrom(request, mode);
      if (secret === undefined) throw unauthenticated('An access token is required', false);
      request.caller = await resolveCaller(
        db,
        secret,
        (reason) => {
          request.log.info({ reason }, 'access token refused');
        },
        now(),
      );
    } catch (error) {
      // The body is not read yet. To keep the connection, Node would read and discard all of
      // it, however large it is declared (10 GiB); the connection is closed instead.
      if (declaresBody(request)) reply.header('connection', 'close');
      throw error;
    }
  });
}

/** The authenticated caller of a route that requires one. */
export function callerOf(request: FastifyRequest): Caller {
  if (!request.caller) throw new AppError('internal', 'route used without authentication');
  return request.caller;
}
