import type { ComposerRequest, KeyValueRow, RequestBody, ResolvedRequest } from '../../../shared/request-types.ts';
import { matchSegments, parseRoutePattern } from '../../../shared/route-pattern.ts';
import type { RouteInfo } from '../../../shared/studio-api.ts';
import { StudioError } from '../studio-error.ts';
import { headerOf } from './body-bytes.ts';
import type { CapturedExchange } from './capture-store.ts';

/** Headers that belong to the connection the capture came on, not to the request itself. */
const CONNECTION_HEADERS = new Set(['host', 'content-length', 'connection', 'keep-alive', 'transfer-encoding', 'te', 'upgrade', 'proxy-connection', 'expect']);

/**
 * The origin a captured request is sent to now: the running integration's current server for the
 * same flow. After a hot reload the server may listen on another port, and the replay follows.
 */
export function currentOrigin(c: CapturedExchange, routes: readonly RouteInfo[] | undefined): string {
  if (!routes || routes.length === 0) throw new StudioError(`${c.integration} is not running; run it to replay this request against the current flow`);
  const route = routes.find((r) => r.flow === c.record.flow && (c.record.route === undefined || r.path === c.record.route)) ?? routes.find((r) => r.flow === c.record.flow) ?? routes[0];
  return new URL(route.url).origin;
}

/** The captured request exactly as it came: same method, target, headers and body bytes. */
export function replayRequestOf(c: CapturedExchange, origin: string): ResolvedRequest {
  const r = c.record;
  const req: ResolvedRequest = {
    method: r.method,
    url: origin + r.target,
    headers: r.requestHeaders.filter(([k]) => !CONNECTION_HEADERS.has(k.toLowerCase())),
    body: r.requestBody && r.requestBody.byteLength > 0 ? { kind: 'bytes', base64: Buffer.from(r.requestBody).toString('base64'), contentType: headerOf(r.requestHeaders, 'content-type') } : { kind: 'none' },
  };
  if (r.flow !== undefined && r.route !== undefined) req.target = { integration: c.integration, flow: r.flow, route: r.route };
  return req;
}

/**
 * The captured request in the composer, to edit before sending: path parameters taken back out of
 * the path by the route pattern, query and headers as rows, a text body as text. Shown values go
 * through the runtime's redaction like everything else the window sees.
 */
export function composerRequestOf(c: CapturedExchange): ComposerRequest {
  const r = c.record;
  const target = c.redact(r.target);
  const q = target.indexOf('?');
  const path = q === -1 ? target : target.slice(0, q);
  const query: KeyValueRow[] = q === -1 ? [] : [...new URLSearchParams(target.slice(q + 1))].map(([name, value]) => ({ name, value, enabled: true }));
  const headers: KeyValueRow[] = r.requestHeaders
    .filter(([k]) => !CONNECTION_HEADERS.has(k.toLowerCase()))
    .map(([name, value]) => ({ name, value: c.redact(value), enabled: true }));
  const params = r.route ? paramsOf(r.route, path) : undefined;
  const request: ComposerRequest = {
    name: `${r.method} ${path}`,
    method: r.method,
    url: path,
    pathParams: params ?? {},
    query,
    headers,
    body: bodyOf(c),
    sign: false,
  };
  if (r.flow !== undefined && r.route !== undefined && params) request.target = { integration: c.integration, flow: r.flow, route: r.route };
  return request;
}

function bodyOf(c: CapturedExchange): RequestBody {
  const bytes = c.record.requestBody;
  if (!bytes || bytes.byteLength === 0) return { kind: 'none' };
  const type = headerOf(c.record.requestHeaders, 'content-type') ?? '';
  const text = Buffer.from(bytes).toString('utf8');
  if (text.includes('\uFFFD') || type.startsWith('multipart/')) return { kind: 'bytes', base64: Buffer.from(bytes).toString('base64'), contentType: type || undefined };
  if (/json/i.test(type)) return { kind: 'json', text: c.redact(text) };
  return { kind: 'text', text: c.redact(text), contentType: type || 'text/plain; charset=utf-8' };
}

/**
 * `{name}` segments of a route pattern read back from a concrete path, by the runtime's own route
 * rules (shared/route-pattern.ts); undefined if they do not line up or do not decode.
 */
export function paramsOf(pattern: string, path: string): Record<string, string> | undefined {
  try {
    return matchSegments(parseRoutePattern(pattern), path.split('/').slice(1));
  } catch {
    return undefined;
  }
}
