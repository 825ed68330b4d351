import { sleepOn } from '../../../../shared/clock.ts';
import type { Dispatcher } from 'undici';
import { implementConnector, type BuildContext, type Connector, type Settings } from '../../core/component.ts';
import { errorMessage, FlowError } from '../../core/errors.ts';
import { formatDuration } from '../../core/duration.ts';
import type { RunContext } from '../../core/engine/chain.ts';
import { newSpanId, traceHeaders } from '../../core/trace-context.ts';
import type { Logger } from '../../core/logger.ts';
import type { AuthStrategy } from './auth/auth-strategy.ts';
import { authFromSettings, missingAuthSettings } from './auth/auth-from-settings.ts';
import { tokenTransport } from './auth/token-transport.ts';
import { httpClientDef } from './http-client.def.ts';
import { withFieldDefaults } from './object-defaults.ts';
import { cacheKey, ResponseCache } from './response-cache.ts';
import { retryDelay, type RetryPolicy } from './retry-policy.ts';
import { exchange, RequestTimeoutError, ResponseTooLargeError, type Exchanged } from './single-exchange.ts';
import { previewBody, previewHeaders } from './exchange-preview.ts';

type HttpClientSettings = Settings<typeof httpClientDef.settings>;

/** A request as a block hands it over: the path is relative to baseURL and may carry a query. */
export interface OutboundRequest {
  method: string;
  path: string;
  /** Header names as the block wrote them; compared case-insensitively. */
  headers: Record<string, string>;
  body?: Uint8Array | string;
}

/** The run a request is sent for, so it shows in that run's trace. */
export interface CallerRun {
  run: RunContext;
  correlationId: string;
}

/** What one send did, for its trace span. */
interface Tally {
  url: string;
  attempts: number;
  cached: boolean;
  /** As sent (the credential included, masked when reported). */
  requestHeaders?: Record<string, string>;
  responseHeaders?: Record<string, string | string[] | undefined>;
}

export interface InboundResponse {
  status: number;
  contentType: string | undefined;
  body: Uint8Array;
}

/**
 * Hop-by-hop headers and the body length belong to the connection the connector manages, not to
 * the request a flow describes (a proxy flow may pass its caller's headers on).
 */
const CONNECTION_HEADERS = new Set(['connection', 'keep-alive', 'proxy-connection', 'transfer-encoding', 'te', 'trailer', 'upgrade', 'content-length']);

/**
 * The `http-client` connector (spec 2 §2.8): one pooled undici Agent per connector, the
 * connector's credential, default headers, the response cap, retry on 429 and the GET cache.
 */
export class HttpClientConnector implements Connector {
  private agent: Dispatcher | undefined;
  /** False while a sandbox's dispatcher stands in; its owner closes it. */
  private ownsAgent = true;
  private auth: AuthStrategy | undefined;
  private readonly origin: string;
  private readonly basePath: string;
  private readonly defaults: Array<[string, string]>;
  private readonly retry: RetryPolicy;
  private readonly cache: ResponseCache | undefined;
  private readonly log: Logger;
  /** The connector's name in the definition, for errors and logs. */
  readonly name: string;

  constructor(
    private readonly s: HttpClientSettings,
    private readonly ctx: BuildContext,
  ) {
    // baseURL may come from a variable validate does not know; the checks run once it is known.
    const base = s.baseURL === undefined ? undefined : safeURL(s.baseURL);
    this.origin = base?.origin ?? '';
    this.basePath = base ? base.pathname.replace(/\/+$/, '') : '';
    this.defaults = Object.entries(s.headers ?? {});
    const retry = withFieldDefaults(httpClientDef.settings.retry.fields, s.retry);
    this.retry = { maxAttempts: retry.maxAttempts, maxBackoffMs: retry.maxBackoff };
    this.cache = s.cache?.enabled ? new ResponseCache(s.cache.ttl, s.cache.maxEntries) : undefined;
    this.log = ctx.log;
    this.name = ctx.path.replace(/^connectors\./, '');
  }

  async start(): Promise<void> {
    const problems = [
      ...(this.s.baseURL === undefined ? ['baseURL has no value; bind the variable it names'] : baseURLProblems(this.s.baseURL)).map((p) => `${this.ctx.path}: ${p}`),
      ...(this.s.auth ? missingAuthSettings(this.s.auth, this.ctx.path) : []),
    ];
    if (problems.length) throw new Error(problems.join('; '));
    const pool = withFieldDefaults(httpClientDef.settings.pool.fields, this.s.pool);
    const sandboxed = this.ctx.host.sandbox?.outboundHttp?.(this.name, 'http-client');
    this.ownsAgent = sandboxed === undefined;
    // undici is loaded by the first http-client to start: a flow without one never pays for it.
    const Agent = sandboxed ? undefined : (await import('undici')).Agent;
    this.agent = sandboxed ?? new Agent!({
      // Every request goes to the one origin of baseURL, so both idle limits bound that pool.
      connections: Math.min(pool.maxIdleConns, pool.maxIdleConnsPerHost),
      // undici: pipelining 0 closes each connection after its response.
      pipelining: pool.disableKeepAlives ? 0 : 1,
      keepAliveTimeout: pool.idleConnTimeout,
      keepAliveMaxTimeout: pool.idleConnTimeout,
    });
    if (this.s.auth) {
      this.auth = authFromSettings(this.s.auth, {
        baseURL: new URL(this.s.baseURL),
        transport: tokenTransport(this.agent, this.s.timeout),
        log: this.log,
        env: (name) => this.ctx.host.env(name) ?? process.env[name],
      });
    }
  }

  async stop(): Promise<void> {
    const agent = this.agent;
    this.agent = undefined;
    if (this.ownsAgent) await agent?.close();
  }

  describe(): Record<string, unknown> {
    return { baseURL: this.origin + this.basePath, auth: this.s.auth?.type ?? 'none', cache: this.cache !== undefined };
  }

  /**
   * Sends one request with the connector's headers, credential, retry and cache. Given the
   * caller's run while someone takes trace spans, the call (URL, status, attempts) is reported
   * into that run's trace.
   */
  async send(req: OutboundRequest, caller?: CallerRun): Promise<InboundResponse> {
    const run = caller?.run;
    // The call is a span of the step that makes it; `traceparent` names it so the upstream joins the trace.
    const spanId = run?.traceId !== undefined ? newSpanId() : undefined;
    const trace = spanId !== undefined ? traceHeaders(run!.traceId!, spanId, run!.sampled ?? true, run!.traceState) : undefined;
    const hub = run?.trace;
    if (!caller || !hub?.spans) return this.deliver(req, undefined, trace);
    const tally: Tally = { url: '', attempts: 0, cached: false };
    const startedAt = Date.now();
    const t0 = performance.now();
    const report = (status: number | undefined, error: string | undefined, res?: InboundResponse): void => {
      hub.span({
        kind: 'http',
        flow: caller.run.flowName,
        runId: caller.run.runId,
        correlationId: caller.correlationId,
        name: `${req.method} ${tally.url}`,
        startedAt,
        durationMs: performance.now() - t0,
        status,
        error,
        detail: {
          connector: this.name,
          method: req.method,
          url: tally.url,
          attempts: tally.attempts,
          retries: Math.max(0, tally.attempts - 1),
          cached: tally.cached,
          // The answer as received, only while someone asks for message snapshots (the studio), so it
          // can turn a recorded run into stubs (saved tests, stubbed re-runs); never shipped otherwise.
          response: res && hub.snapshots ? recordedResponse(res) : undefined,
          requestHeaders: previewHeaders(tally.requestHeaders ?? req.headers),
          ...(tally.responseHeaders ? { responseHeaders: previewHeaders(tally.responseHeaders) } : {}),
          ...optional('requestBody', previewBody(req.body)),
          ...optional('responseBody', previewBody(res?.body)),
        },
        deployment: caller.run.deployment,
        instance: caller.run.instance,
        traceId: caller.run.traceId,
        spanId,
        parentSpanId: caller.run.stepSpanId ?? caller.run.spanId,
        sampled: caller.run.sampled,
      });
    };
    try {
      const res = await this.deliver(req, tally, trace);
      report(res.status, undefined, res);
      return res;
    } catch (err) {
      report(undefined, errorMessage(err));
      throw err;
    }
  }

  private async deliver(req: OutboundRequest, tally?: Tally, trace?: Record<string, string>): Promise<InboundResponse> {
    const agent = this.agent;
    if (!agent) throw new FlowError(`http-client ${this.name}: the connector is not started`);
    const path = joinPath(this.basePath, req.path);
    const headers = this.headersFor(req.headers);
    if (tally) {
      tally.url = this.origin + path;
      tally.requestHeaders = headers;
    }
    const key = this.cache && req.method === 'GET' ? cacheKey(path, headers) : undefined;
    if (key !== undefined) {
      const hit = this.cache!.get(key, this.ctx.host.clock.now());
      if (hit) {
        if (tally) tally.cached = true;
        return hit;
      }
    }
    // After the cache key: a new span id per call must not defeat the GET cache. A flow that
    // sets its own traceparent (a proxy passing its caller's on) keeps it.
    if (trace) for (const name in trace) if (!hasHeader(headers, name)) headers[name] = trace[name];
    let credential: string | undefined;
    if (this.auth && !hasHeader(headers, 'authorization')) {
      credential = await this.auth.authorization();
      headers.authorization = credential;
    }
    const res = await this.exchange(agent, req.method, path, headers, req.body, tally);
    if (credential !== undefined && res.status === 401) this.auth!.rejected(credential);
    if (key !== undefined && res.status >= 200 && res.status < 300) this.cache!.set(key, res, this.ctx.host.clock.now());
    return res;
  }

  /** The request with retries on 429; each attempt is bounded by `timeout`. */
  private async exchange(
    agent: Dispatcher,
    method: string,
    path: string,
    headers: Record<string, string>,
    body: Uint8Array | string | undefined,
    tally: Tally | undefined,
  ): Promise<InboundResponse> {
    const request: Dispatcher.DispatchOptions = { origin: this.origin, path, method: method as Dispatcher.HttpMethod, headers, body };
    for (let attempt = 1; ; attempt++) {
      if (tally) tally.attempts = attempt;
      const retryable = attempt < this.retry.maxAttempts;
      let res: Exchanged;
      try {
        res = await exchange(agent, request, { cap: this.s.maxResponseBytes, timeoutMs: this.s.timeout, discard429: retryable, clock: this.ctx.host.clock });
        if (tally) tally.responseHeaders = res.headers;
      } catch (err) {
        throw this.failure(err, method, path);
      }
      if (res.status === 429 && retryable) {
        const wait = retryDelay(first(res.headers['retry-after']), attempt, this.retry, this.ctx.host.clock.now());
        this.log.debug('upstream answered 429; retrying', { connector: this.name, method, path: withoutQuery(path), attempt, waitMs: wait });
        await sleepOn(this.ctx.host.clock, wait);
        continue;
      }
      return { status: res.status, contentType: first(res.headers['content-type']), body: res.body };
    }
  }

  /** Default headers fill in what the block left out; connection-level headers are dropped. */
  private headersFor(given: Record<string, string>): Record<string, string> {
    const out: Record<string, string> = {};
    for (const name in given) if (!CONNECTION_HEADERS.has(name.toLowerCase())) out[name] = given[name];
    for (const [name, value] of this.defaults) if (!hasHeader(out, name)) out[name] = value;
    return out;
  }

  private failure(err: unknown, method: string, path: string): Error {
    const what = `http-client ${this.name}: ${method} ${withoutQuery(path)}`;
    if (err instanceof RequestTimeoutError) return new FlowError(`${what} timed out after ${formatDuration(err.timeoutMs)}`, { status: 504 });
    if (err instanceof ResponseTooLargeError) return new FlowError(`${what}: ${err.message}`, { status: 502 });
    const code = (err as { code?: string }).code;
    return new FlowError(`${what} failed: ${errorMessage(err)}${code && !errorMessage(err).includes(code) ? ` (${code})` : ''}`, { status: 502, cause: err });
  }
}

function hasHeader(headers: Record<string, string>, lowerName: string): boolean {
  const want = lowerName.toLowerCase();
  for (const name in headers) if (name.toLowerCase() === want) return true;
  return false;
}

function first(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[0] : value;
}

/** Paths in errors and logs leave out the query string, where callers sometimes put keys. */
function withoutQuery(path: string): string {
  const i = path.indexOf('?');
  return i < 0 ? path : path.slice(0, i);
}

function safeURL(text: string): URL | undefined {
  try {
    return new URL(text);
  } catch {
    return undefined;
  }
}

/** The base path and a block's path with exactly one slash between them. */
function joinPath(basePath: string, path: string): string {
  if (path === '' || path.startsWith('?')) return (basePath || '/') + path;
  return basePath + (path.startsWith('/') ? path : `/${path}`);
}

/** What is wrong with a URL setting; the value itself is not echoed, it may hold a password. */
function absoluteURLProblems(text: string | undefined, name: string): string[] {
  if (text === undefined) return [];
  const url = safeURL(text);
  if (!url || (url.protocol !== 'http:' && url.protocol !== 'https:') || url.host === '') {
    return [`${name} must be an absolute http or https URL with a host, e.g. https://api.example.com/v1`];
  }
  if (url.username || url.password) return [`${name} must not carry credentials in the URL; use the auth settings`];
  return [];
}

function baseURLProblems(text: string | undefined): string[] {
  const problems = absoluteURLProblems(text, 'baseURL');
  if (problems.length === 0 && text !== undefined) {
    const url = new URL(text);
    if (url.search || url.hash) problems.push("baseURL must not have a query or fragment; give query parameters in the block's query");
  }
  return problems;
}

export const httpClient = implementConnector(
  httpClientDef,
  (s, ctx) => new HttpClientConnector(s, ctx),
  (s) => [...baseURLProblems(s.baseURL), ...absoluteURLProblems(s.auth?.tokenURL, 'auth.tokenURL')],
);

/** Up to this much of a response body is kept in a trace span; a longer one is left out. */
const RECORDED_BODY_BYTES = 64 * 1024;

/** A response for the trace: its content type and body as text, when it is text and small enough. */
function recordedResponse(res: InboundResponse): { contentType?: string; body?: string } {
  if (res.body.byteLength > RECORDED_BODY_BYTES) return { contentType: res.contentType };
  const text = Buffer.from(res.body).toString('utf8');
  return { contentType: res.contentType, body: text.includes('\uFFFD') ? undefined : text };
}

function optional<K extends string, V>(key: K, value: V | undefined): Partial<Record<K, V>> {
  return value === undefined ? {} : ({ [key]: value } as Record<K, V>);
}
