/**
 * A route path such as `/orders/{id}/items/{item}`: literal segments and whole-segment `{name}`
 * parameters. The one rule set for `{name}` paths: the runtime's http routes (parameters land in
 * `vars.<name>`), the platform server's router, and the studio reading a captured path back.
 * Pure, so the platform and the studio share it through shared/.
 */
export interface RoutePattern {
  /** As written (after the basePath), e.g. `/api/orders/{id}`. */
  readonly text: string;
  /** The same path with parameter names erased: two routes with one shape are the same route. */
  readonly shape: string;
  readonly segments: readonly Segment[];
  readonly hasParams: boolean;
}

type Segment = { literal: string } | { param: string };

const PARAM = /^\{([A-Za-z_][A-Za-z0-9_]*)\}$/;

/** Parses a route path; throws an Error saying what is wrong with it. */
export function parseRoutePattern(text: string): RoutePattern {
  if (!text.startsWith('/')) throw new Error(`route path "${text}" must start with /`);
  if (text.includes('?') || text.includes('#')) throw new Error(`route path "${text}" must not contain a query (?) or fragment (#)`);
  const seen = new Set<string>();
  const segments: Segment[] = text
    .split('/')
    .slice(1)
    .map((part) => {
      const m = PARAM.exec(part);
      if (m) {
        if (seen.has(m[1])) throw new Error(`route path "${text}" names parameter {${m[1]}} twice`);
        seen.add(m[1]);
        return { param: m[1] };
      }
      if (part.includes('{') || part.includes('}')) {
        throw new Error(`route path "${text}": "${part}" is not a parameter; a parameter is a whole segment like {id} (letters, digits, _)`);
      }
      return { literal: part };
    });
  const shape = '/' + segments.map((s) => ('param' in s ? '{}' : s.literal)).join('/');
  return { text, shape, segments, hasParams: seen.size > 0 };
}

/** Joins a basePath and a route path: `/api` + `/orders` → `/api/orders`. */
export function joinBasePath(basePath: string | undefined, path: string): string {
  if (!basePath) return path;
  const base = '/' + basePath.replace(/^\/+|\/+$/g, '');
  if (base === '/') return path;
  return path === '/' ? base : base + path;
}

/** Thrown when a path segment's percent-encoding is broken (answered 400), naming the parameter where it is one. */
export class BadPathError extends Error {
  constructor(
    message: string,
    readonly param?: string,
  ) {
    super(message);
  }
}

/** A request URL's path, without its query (split('?') is slow on a fresh string; see pathSegments). */
export function urlPath(url: string): string {
  const q = url.indexOf('?');
  return q === -1 ? url : url.slice(0, q);
}

/**
 * A request path's segments, as `path.split('/').slice(1)` gives them: `/v1/kv/user/entry` →
 * `['v1', 'kv', 'user', 'entry']`. Walked with indexOf: a path read from a request is a fresh
 * string, which String.prototype.split handles in the runtime (its cache serves only constant
 * strings) at two to three times the cost, on every request the platform answers.
 */
export function pathSegments(path: string): string[] {
  if (path.charCodeAt(0) !== 0x2f /* / */) return path.split('/').slice(1);
  const parts: string[] = [];
  let start = 1;
  for (let end = path.indexOf('/', 1); end !== -1; end = path.indexOf('/', start)) {
    parts.push(path.slice(start, end));
    start = end + 1;
  }
  parts.push(path.slice(start));
  return parts;
}

/**
 * Matches request path segments against a pattern; returns the decoded parameters or undefined.
 * Literal segments compare decoded, so `/caf%C3%A9` reaches a route written `/café`.
 */
export function matchSegments(pattern: RoutePattern, parts: readonly string[]): Record<string, string> | undefined {
  const segs = pattern.segments;
  if (segs.length !== parts.length) return undefined;
  for (let i = 0; i < segs.length; i++) {
    const s = segs[i];
    if ('literal' in s && s.literal !== parts[i] && s.literal !== decode(parts[i], undefined)) return undefined;
  }
  const params: Record<string, string> = {};
  for (let i = 0; i < segs.length; i++) {
    const s = segs[i];
    if ('param' in s) {
      if (parts[i] === '') return undefined;
      params[s.param] = decode(parts[i], s.param);
    }
  }
  return params;
}

function decode(part: string, param: string | undefined): string {
  if (!part.includes('%')) return part;
  try {
    return decodeURIComponent(part);
  } catch {
    const shown = part.slice(0, 80);
    throw new BadPathError(param ? `the path parameter ${param} is not valid percent-encoding: "${shown}"` : `the path segment "${shown}" is not valid percent-encoding`, param);
  }
}

/**
 * Orders patterns so a more literal one is tried first: `/orders/new` before `/orders/{id}`,
 * comparing segment by segment from the left.
 */
export function compareSpecificity(a: RoutePattern, b: RoutePattern): number {
  const n = Math.min(a.segments.length, b.segments.length);
  for (let i = 0; i < n; i++) {
    const al = 'literal' in a.segments[i];
    const bl = 'literal' in b.segments[i];
    if (al !== bl) return al ? -1 : 1;
  }
  return b.segments.length - a.segments.length;
}
