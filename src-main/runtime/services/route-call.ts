import type { ApiRoute, JsonBody, JsonResponse, PathOf, QueryOf, RouteAddress } from '../../../shared/platform-api/contract.ts';
import { seg, type PlatformRequest, type PlatformResponse, type PlatformTransport } from './api-http.ts';

/**
 * A call of a route declared in shared/platform-api/, through its address (route-addresses.ts):
 * method and path come from the declaration, and the path parameters, query and JSON body are
 * typed by its schemas, so a field renamed there breaks the client at compile time rather than on
 * the wire.
 */
export interface RouteCall<R extends ApiRoute> extends Omit<PlatformRequest, 'method' | 'path' | 'query' | 'json'> {
  /** Path parameters by name; percent-encoded here. */
  params?: PathOf<R>;
  query?: { [K in keyof QueryOf<R>]?: QueryOf<R>[K] };
  json?: JsonBody<R>;
}

export function callRoute<R extends ApiRoute>(http: PlatformTransport, route: RouteAddress<R>, call: RouteCall<R>): Promise<PlatformResponse> {
  const { params, query, ...rest } = call;
  return http.call({ ...rest, query: query as PlatformRequest['query'], method: route.method, path: routePath(route, params as Record<string, string> | undefined) });
}

/** The JSON body of an answer, typed by the route's schema for that status (not re-checked at run time). */
export function responseJson<R extends ApiRoute, S extends number>(res: PlatformResponse, _route: RouteAddress<R>, _status: S): JsonResponse<R, S> {
  return res.json<JsonResponse<R, S>>();
}

const templates = new WeakMap<RouteAddress, Array<string | { param: string }>>();

/** `/v1/queues/{subject}/publish` with `{subject: 'orders/new'}` → `/v1/queues/orders%2Fnew/publish`. */
export function routePath(route: RouteAddress, params: Record<string, string> | undefined): string {
  let parts = templates.get(route);
  if (!parts) {
    parts = route.path.split(/(\{\w+\})/).filter(Boolean).map((p) => (p.startsWith('{') ? { param: p.slice(1, -1) } : p));
    templates.set(route, parts);
  }
  let path = '';
  for (const part of parts) {
    if (typeof part === 'string') path += part;
    else {
      const value = params?.[part.param];
      if (value === undefined) throw new Error(`${route.operationId} needs the path parameter ${part.param}`);
      path += seg(value);
    }
  }
  return path;
}
