import { compareSpecificity, matchSegments, pathSegments, type RoutePattern } from '../../../../shared/route-pattern.ts';

/** What the table needs to know about a route. */
export interface Routable {
  readonly flowName: string;
  readonly pattern: RoutePattern;
  /** Methods served; undefined serves every method. */
  readonly methods: readonly string[] | undefined;
}

/** Every route registered on one path shape, by method. */
export class PathRoutes<R extends Routable> {
  readonly byMethod = new Map<string, R>();
  anyMethod: R | undefined;
  /** The Allow header for a 405, computed once per change. */
  allow = '';

  constructor(readonly pattern: RoutePattern) {}

  /** The route serving a method; GET also answers HEAD unless another flow serves HEAD itself. */
  forMethod(method: string): R | undefined {
    const exact = this.byMethod.get(method);
    if (exact) return exact;
    if (method === 'HEAD') return this.byMethod.get('GET') ?? this.anyMethod;
    return this.anyMethod;
  }

  add(route: R): void {
    const clash = this.clashWith(route);
    if (clash) {
      const [method, other] = clash;
      throw new Error(
        `${method} ${route.pattern.text} is already served by flow "${other.flowName}" (${other.pattern.text}); flows "${other.flowName}" and "${route.flowName}" cannot both serve it: give one another path or other methods`,
      );
    }
    if (route.methods === undefined) this.anyMethod = route;
    else for (const m of route.methods) this.byMethod.set(m, route);
    const names = new Set(this.byMethod.keys());
    if (names.has('GET')) names.add('HEAD');
    this.allow = [...names].sort().join(', ');
  }

  private clashWith(route: R): [string, R] | undefined {
    if (route.methods === undefined) {
      const other = this.anyMethod ?? this.byMethod.values().next().value;
      return other ? ['every method of', other] : undefined;
    }
    for (const m of route.methods) {
      const other = this.byMethod.get(m) ?? this.anyMethod;
      if (other) return [m, other];
    }
    return undefined;
  }
}

export interface RouteMatch<R extends Routable> {
  routes: PathRoutes<R>;
  params: Record<string, string> | undefined;
}

/**
 * Finds the routes for a request path. Literal paths are one map lookup (the common case);
 * paths with parameters are tried most literal first.
 */
export class RouteTable<R extends Routable> {
  private readonly literal = new Map<string, PathRoutes<R>>();
  private readonly withParams: PathRoutes<R>[] = [];
  private readonly byShape = new Map<string, PathRoutes<R>>();

  /** Registers a route; throws naming both flows when the method and path are already taken. */
  add(route: R): void {
    let entry = this.byShape.get(route.pattern.shape);
    if (!entry) {
      entry = new PathRoutes<R>(route.pattern);
      entry.add(route);
      this.byShape.set(route.pattern.shape, entry);
      if (route.pattern.hasParams) {
        this.withParams.push(entry);
        this.withParams.sort((a, b) => compareSpecificity(a.pattern, b.pattern));
      } else this.literal.set(route.pattern.text, entry);
      return;
    }
    entry.add(route);
  }

  /** Throws BadPathError for a parameter with broken percent-encoding. */
  match(pathname: string): RouteMatch<R> | undefined {
    const exact = this.literal.get(pathname);
    if (exact) return { routes: exact, params: undefined };
    if (pathname.includes('%')) {
      let decoded: string | undefined;
      try {
        decoded = decodeURIComponent(pathname);
      } catch {
        decoded = undefined;
      }
      const hit = decoded === undefined ? undefined : this.literal.get(decoded);
      if (hit) return { routes: hit, params: undefined };
    }
    if (this.withParams.length === 0) return undefined;
    const parts = pathSegments(pathname);
    for (const entry of this.withParams) {
      const params = matchSegments(entry.pattern, parts);
      if (params) return { routes: entry, params };
    }
    return undefined;
  }

  /** Every registered route, for describe(). */
  all(): R[] {
    const out: R[] = [];
    for (const entry of this.byShape.values()) {
      if (entry.anyMethod) out.push(entry.anyMethod);
      for (const r of new Set(entry.byMethod.values())) out.push(r);
    }
    return out;
  }
}
