import { BadRequest, InternalError, NotImplemented, RequestTimeout, TooLarge, Unauthorized } from './common.ts';
import type { ApiRoute, ResponseSpec, RouteSpec } from './contract.ts';

/**
 * Declares a route of the platform HTTP API. The statuses every route shares are added here, so
 * no route can forget one: 400 (any query string can be malformed), 401 unless public, 500;
 * 501 on the delegation API (/v1: spec 1 §4, every route answers it when its capability is
 * off); 413 (a Content-Length over the route's body limit, refused before anything else: a
 * route that takes no body has a limit too); 408 (body stalled) wherever a body is read.
 */
export function defineRoute<const R extends RouteSpec>(route: R): ApiRoute<R> {
  const common: Record<number, ResponseSpec> = {
    400: BadRequest,
    413: TooLarge,
    500: InternalError,
  };
  if (!route.public) common[401] = Unauthorized;
  if (route.path.startsWith('/v1/')) common[501] = NotImplemented;
  if (route.body) common[408] = RequestTimeout;
  const all = { ...common, ...route.responses };
  const allResponses = Object.fromEntries(Object.entries(all).sort(([a], [b]) => Number(a) - Number(b)));
  return {
    ...route,
    allResponses,
    statuses: new Set(Object.keys(allResponses).map(Number)),
  };
}
