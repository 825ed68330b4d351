import type { ComposerRequest, KeyValueRow, RequestBody, RequestEnvironment, ResolvedRequest } from '../../../shared/request-types.ts';
import type { RouteInfo } from '../../../shared/studio-api.ts';
import { headerProblem } from '../../../shared/request-headers.ts';
import { matchSegments, parseRoutePattern, pathSegments } from '../../../shared/route-pattern.ts';

/** `{{name}}` filled from the environment; unknown names stay as written so the mistake shows. */
export function fillVars(text: string, vars: Record<string, string>): string {
  return text.replace(/\{\{\s*([\w.-]+)\s*\}\}/g, (whole, name: string) => (Object.hasOwn(vars, name) ? vars[name] : whole));
}

/** The `{name}` parameters of a route pattern, in order. */
export function paramNames(pattern: string): string[] {
  return [...pattern.matchAll(/\{([A-Za-z_][A-Za-z0-9_]*)\}/g)].map((m) => m[1]);
}

/**
 * What `{{name}}` can stand for in a body: the environment's variables and, over them, the
 * chosen route's path parameters as filled in (so a body can repeat `{{id}}` of `/users/{id}`).
 */
export function requestVariables(req: ComposerRequest, envVars: Record<string, string>): Record<string, string> {
  const out = { ...envVars };
  if (req.target) {
    for (const p of paramNames(req.target.route)) {
      const value = req.pathParams[p];
      if (value !== undefined && value.trim() !== '') out[p] = fillVars(value, envVars);
    }
  }
  return out;
}

/**
 * The URL a composer request goes to: the route's current URL (its port may change on every
 * start) with path parameters filled in, or the URL typed, plus the enabled query rows.
 */
export function resolveUrl(req: ComposerRequest, route: RouteInfo | undefined, vars: Record<string, string>): string {
  let base: string;
  if (req.target && route) {
    base = route.url.replace(/\{([A-Za-z_][A-Za-z0-9_]*)\}/g, (_, name: string) => encodeURIComponent(fillVars(req.pathParams[name] ?? '', vars)));
  } else {
    base = fillVars(req.url, vars);
  }
  const query = req.query.filter((q) => q.enabled && q.name.trim() !== '');
  if (query.length === 0) return base;
  const params = new URLSearchParams(query.map((q) => [fillVars(q.name, vars), fillVars(q.value, vars)]));
  return base + (base.includes('?') ? '&' : '?') + params.toString();
}

/** Unfilled parameters and unknown variables, for the person before they press Send. */
export function composerProblems(req: ComposerRequest, route: RouteInfo | undefined, vars: Record<string, string>): string[] {
  const problems: string[] = [];
  if (req.target && !route) problems.push(`${req.target.integration} is not running; run it to send to ${req.target.route}`);
  if (!req.target && !/^https?:\/\//.test(req.url)) problems.push('pick a route, or type an absolute http:// URL');
  if (req.target) for (const p of paramNames(req.target.route)) if (!(req.pathParams[p] ?? '').trim()) problems.push(`path parameter {${p}} is empty`);
  const bodyVars = requestVariables(req, vars);
  const texts: Array<[string, Record<string, string>]> = [
    ...[req.url, ...req.headers.filter((h) => h.enabled).flatMap((h) => [h.name, h.value]), ...req.query.filter((q) => q.enabled).map((q) => q.value)].map((t): [string, Record<string, string>] => [t, vars]),
    [bodyText(req.body), bodyVars],
  ];
  for (const [t, known] of texts) for (const m of t.matchAll(/\{\{\s*([\w.-]+)\s*\}\}/g)) if (!Object.hasOwn(known, m[1])) problems.push(`{{${m[1]}}} is not a variable of the environment`);
  for (const h of req.headers) {
    if (!h.enabled || h.name.trim() === '') continue;
    const problem = headerProblem(fillVars(h.name, vars).trim(), fillVars(h.value, vars));
    if (problem) problems.push(problem);
  }
  if (req.body.kind === 'json' && req.body.text.trim() !== '') {
    try {
      JSON.parse(fillVars(req.body.text, bodyVars));
    } catch (err) {
      problems.push(`the JSON body is not valid: ${(err as Error).message}`);
    }
  }
  return [...new Set(problems)];
}

export function resolveRequest(req: ComposerRequest, route: RouteInfo | undefined, env: RequestEnvironment | undefined): ResolvedRequest {
  const vars = env?.vars ?? {};
  const resolved: ResolvedRequest = {
    method: req.method,
    url: resolveUrl(req, route, vars),
    // A name pasted with a space around it ("X-Trace ") is meant without it; HTTP refuses it with one.
    headers: req.headers.filter((h) => h.enabled && h.name.trim() !== '').map((h) => [fillVars(h.name, vars).trim(), fillVars(h.value, vars)]),
    body: fillBody(req.body, requestVariables(req, vars)),
  };
  if (req.target) resolved.target = req.target;
  if (req.sign) resolved.sign = true;
  if (req.fromHistory !== undefined) resolved.fromHistory = req.fromHistory;
  return resolved;
}

function fillBody(body: RequestBody, vars: Record<string, string>): RequestBody {
  switch (body.kind) {
    case 'json':
    case 'text':
      return { ...body, text: fillVars(body.text, vars) };
    case 'multipart':
      return { kind: 'multipart', parts: body.parts.map((p) => (p.file ? p : { ...p, value: fillVars(p.value ?? '', vars) })) };
    default:
      return body;
  }
}

function bodyText(body: RequestBody): string {
  return body.kind === 'json' || body.kind === 'text' ? body.text : '';
}

/** A shell command that sends the same request with curl (single-quoted, so nothing expands). */
export function toCurl(req: ResolvedRequest): string {
  const q = (s: string): string => `'${s.replace(/'/g, `'\\''`)}'`;
  // HEAD is -I: with -X HEAD curl waits for the body the Content-Length announces, which never comes.
  const parts = req.method.toUpperCase() === 'HEAD' ? ['curl', '-I', q(req.url)] : ['curl', '-i', '-X', req.method, q(req.url)];
  const headers = [...req.headers];
  const has = (name: string): boolean => headers.some(([k]) => k.toLowerCase() === name);
  switch (req.body.kind) {
    case 'json':
      if (!has('content-type')) headers.push(['Content-Type', 'application/json']);
      break;
    case 'text':
      if (!has('content-type')) headers.push(['Content-Type', req.body.contentType]);
      break;
    case 'bytes':
      if (!has('content-type') && req.body.contentType) headers.push(['Content-Type', req.body.contentType]);
      break;
  }
  for (const [k, v] of headers) parts.push('-H', q(`${k}: ${v}`));
  const body = req.body;
  if (body.kind === 'json' || body.kind === 'text') parts.push('--data-binary', q(body.text));
  else if (body.kind === 'bytes') parts.push('--data-binary', '@request-body.bin', `# the exact bytes: echo ${q(body.base64)} | base64 -d > request-body.bin`);
  else if (body.kind === 'multipart') {
    for (const p of body.parts) parts.push('-F', q(p.file ? `${p.name}=@${p.file.fileName};type=${p.file.contentType}` : `${p.name}=${p.value ?? ''}`));
  }
  if (req.headers.some(([k, v]) => k.toLowerCase() === 'accept' && v.includes('text/event-stream'))) parts.splice(1, 0, '-N');
  return parts.join(' ');
}

/**
 * A sent request back in the composer. One aimed at a route goes back to that route, its path
 * parameters read out of the URL it went to (the route's pattern ends its path, after any
 * basePath), so sending it again follows the route to wherever it listens now; a request to a
 * typed URL goes back to that URL.
 */
export function composerOfSent(req: ResolvedRequest): ComposerRequest {
  let path = req.url;
  let search = '';
  try {
    const u = new URL(req.url);
    path = u.pathname;
    search = u.search;
  } catch {
    // Not a URL: shown as typed.
  }
  const headers = req.headers.map(([name, value]): KeyValueRow => ({ name, value, enabled: true }));
  const base: ComposerRequest = { name: `${req.method} ${path}`, method: req.method, url: req.url, pathParams: {}, query: [], headers, body: req.body, sign: false };
  if (!req.target) return base;
  const params = paramsAtEnd(req.target.route, path);
  if (!params) return base;
  const query = [...new URLSearchParams(search)].map(([name, value]): KeyValueRow => ({ name, value, enabled: true }));
  return { ...base, target: req.target, url: '', pathParams: params, query, sign: req.sign ?? false };
}

/** `{name}` values of a route pattern read from the end of a path (`/api/items/42` on `/items/{id}`). */
function paramsAtEnd(pattern: string, path: string): Record<string, string> | undefined {
  try {
    const parsed = parseRoutePattern(pattern);
    const parts = pathSegments(path);
    if (parts.length < parsed.segments.length) return undefined;
    return matchSegments(parsed, parts.slice(parts.length - parsed.segments.length));
  } catch {
    return undefined;
  }
}

/**
 * The composer after picking a route: a fresh request for another route; for the route it is
 * already aimed at, what was typed stays (the body when the method sends one, path parameters,
 * headers and query), so picking the route again loses nothing.
 */
export function retarget(current: ComposerRequest, fresh: ComposerRequest): ComposerRequest {
  const same = current.target && fresh.target && current.target.integration === fresh.target.integration && current.target.flow === fresh.target.flow && current.target.route === fresh.target.route;
  if (!same) return fresh;
  const params = Object.fromEntries(Object.keys(fresh.pathParams).map((p) => [p, current.pathParams[p] ?? '']));
  const typedBody = current.body.kind !== 'none' && !(current.body.kind === 'json' && current.body.text.trim().replace(/\s/g, '') === '{}');
  return {
    ...fresh,
    pathParams: params,
    headers: current.headers.length > 0 ? current.headers : fresh.headers,
    query: current.query.length > 0 ? current.query : fresh.query,
    body: typedBody && fresh.body.kind !== 'none' ? current.body : fresh.body,
    name: current.target && current.name !== `${current.method} ${current.target.route}` ? current.name : fresh.name,
    // Headers and body kept from a request opened from the history still re-send what they masked.
    ...(current.fromHistory !== undefined ? { fromHistory: current.fromHistory } : {}),
  };
}
