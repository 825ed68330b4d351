import type { IncomingMessage, ServerResponse } from 'node:http';
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
  handle(ctx: RouteContext): void | Promise<void>;
}

interface CompiledRoute {
  route: Route;
  /** A static segment, or null where the template has a parameter. */
  segments: Array<string | null>;
  names: string[];
}

export type RouteMatch =
  | { kind: 'route'; route: Route; params: Record<string, string> }
  | { kind: 'wrong-method'; allow: string[] }
  | { kind: 'none' };

/**
 * A tiny router over path templates. Lookup splits the path once and compares segments against
 * the templates of the same length; static segments win over parameters, so a subject named
 * `reply` can never shadow `/v1/queues/reply`.
 */
export class Router {
  private readonly byLength = new Map<number, CompiledRoute[]>();
  readonly routes: Route[] = [];

  add(...routes: Route[]): this {
    for (const route of routes) {
      const parts = route.path.split('/').slice(1);
      const compiled: CompiledRoute = {
        route,
        segments: parts.map((p) => (p.startsWith('{') ? null : p)),
        names: parts.filter((p) => p.startsWith('{')).map((p) => p.slice(1, -1)),
      };
      const list = this.byLength.get(parts.length) ?? [];
      list.push(compiled);
      // Templates with more static segments first, so the most specific one matches.
      list.sort((a, b) => staticCount(b) - staticCount(a));
      this.byLength.set(parts.length, list);
      this.routes.push(route);
    }
    return this;
  }

  match(method: string, path: string): RouteMatch {
    const parts = path.split('/');
    parts.shift();
    const candidates = this.byLength.get(parts.length);
    if (!candidates) return { kind: 'none' };
    let allow: string[] | undefined;
    let bestStatic = -1;
    for (const c of candidates) {
      if (!segmentsMatch(c, parts)) continue;
      const specificity = staticCount(c);
      if (specificity < bestStatic) break;
      bestStatic = specificity;
      if (c.route.method === method) return { kind: 'route', route: c.route, params: decodeParams(c, parts) };
      (allow ??= []).push(c.route.method);
    }
    return allow ? { kind: 'wrong-method', allow } : { kind: 'none' };
  }
}

function staticCount(c: CompiledRoute): number {
  let n = 0;
  for (const s of c.segments) if (s !== null) n++;
  return n;
}

function segmentsMatch(c: CompiledRoute, parts: string[]): boolean {
  for (let i = 0; i < parts.length; i++) {
    const s = c.segments[i];
    if (s === null ? parts[i] === '' : s !== parts[i]) return false;
  }
  return true;
}

function decodeParams(c: CompiledRoute, parts: string[]): Record<string, string> {
  const params: Record<string, string> = {};
  let n = 0;
  for (let i = 0; i < parts.length; i++) {
    if (c.segments[i] !== null) continue;
    const name = c.names[n++];
    try {
      params[name] = decodeURIComponent(parts[i]);
    } catch {
      throw badRequest('invalid_path', `the path parameter ${name} is not valid percent-encoding: "${parts[i].slice(0, 80)}"`);
    }
  }
  return params;
}
