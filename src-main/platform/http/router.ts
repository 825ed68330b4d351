import type { IncomingMessage, ServerResponse } from 'node:http';
import type { ApiRoute } from '../../../shared/platform-api/contract.ts';
import { BadPathError, compareSpecificity, matchSegments, parseRoutePattern, pathSegments, type RoutePattern } from '../../../shared/route-pattern.ts';
import { badRequest } from './api-error.ts';

export type Method = 'GET' | 'PUT' | 'POST' | 'DELETE';

export interface RouteContext {
  req: IncomingMessage;
  res: ServerResponse;
  /** Path parameters, percent-decoded exactly once. */
  params: Record<string, string>;
  query: URLSearchParams;
}

export interface Route {
  method: Method;
  /** OpenAPI-style template, e.g. `/v1/kv/{namespace}/entry`; the OpenAPI test compares these. */
  path: string;
  /** The capability the route belongs to, named in the 501 a switched-off route answers. */
  capability: string;
  /** False when the capability (or the route's own flag) is switched off: the route answers 501. */
  enabled: boolean;
  /** Answers without a bearer token (discovery only). */
  public?: boolean;
  /** The largest body it reads; a larger Content-Length is answered 413 before the route looks at anything else. */
  maxBodyBytes: number;
  /** Its declaration in shared/platform-api/ (set by `implement`): the statuses it may answer. */
  contract?: ApiRoute;
  handle(ctx: RouteContext): void | Promise<void>;
}

interface CompiledRoute {
  route: Route;
  pattern: RoutePattern;
}

export type RouteMatch =
  | { kind: 'route'; route: Route; params: Record<string, string> }
  | { kind: 'wrong-method'; allow: string[] }
  | { kind: 'none' };

/**
 * A tiny router over path templates, with the `{name}` rules every router here follows
 * (shared/route-pattern.ts, as the runtime's http routes): lookup splits the path once and
 * compares it against the templates of the same length, more literal ones first, so a subject
 * named `reply` can never shadow `/v1/queues/reply`; each parameter is percent-decoded once.
 */
export class Router {
  private readonly byLength = new Map<number, CompiledRoute[]>();
  readonly routes: Route[] = [];

  add(...routes: Route[]): this {
    for (const route of routes) {
      const pattern = parseRoutePattern(route.path);
      const list = this.byLength.get(pattern.segments.length) ?? [];
      list.push({ route, pattern });
      list.sort((a, b) => compareSpecificity(a.pattern, b.pattern));
      this.byLength.set(pattern.segments.length, list);
      this.routes.push(route);
    }
    return this;
  }

  match(method: string, path: string): RouteMatch {
    const parts = pathSegments(path);
    let matched: CompiledRoute | undefined;
    const allow: string[] = [];
    for (const c of this.byLength.get(parts.length) ?? []) {
      // Only templates as specific as the first that matched answer for this path.
      if (matched && compareSpecificity(c.pattern, matched.pattern) !== 0) break;
      const params = paramsOf(c.pattern, parts);
      if (!params) continue;
      matched ??= c;
      if (c.route.method === method) return { kind: 'route', route: c.route, params };
      allow.push(c.route.method);
    }
    return allow.length > 0 ? { kind: 'wrong-method', allow } : { kind: 'none' };
  }
}

function paramsOf(pattern: RoutePattern, parts: readonly string[]): Record<string, string> | undefined {
  try {
    return matchSegments(pattern, parts);
  } catch (err) {
    if (err instanceof BadPathError) throw badRequest('invalid_path', err.message);
    throw err;
  }
}
