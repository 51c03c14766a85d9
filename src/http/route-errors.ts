import { isRateLimited } from './rate-limit.js';
import { isShedUnderLoad } from './overload.js';
import type { ErrorStatus } from './schemas.js';

/**
 * The error statuses a route can answer whatever it does, which the app adds to every route's
 * OpenAPI responses: 400 (an unknown query parameter, a malformed URL), 500, and where the
 * request limit and load shedding apply, 429 and 503. A route lists only its own beyond these.
 */
export function routeWideErrorStatuses(url: string): ErrorStatus[] {
  return [
    400,
    ...(isRateLimited(url) ? [429 as const] : []),
    500,
    ...(isShedUnderLoad(url) ? [503 as const] : []),
  ];
}
