import { createServer, type IncomingMessage, type Server, type ServerOptions, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { implementConnector, type BuildContext, type Connector, type Settings } from '../../core/component.ts';
import { errorMessage } from '../../core/errors.ts';
import type { Logger } from '../../core/logger.ts';
import type { ExchangeHub } from '../../core/exchange-hub.ts';
import { CorsPolicy } from './cors.ts';
import { noteExchange, watchExchange } from './exchange-capture.ts';
import { httpDef, RECEIVE_DEFAULTS } from './http.def.ts';
import type { HttpRoute } from './http-route.ts';
import { expectsContinue } from './request-body.ts';
import { sendError, type ResponseRules } from './response-writer.ts';
import { BadPathError } from '../../../../shared/route-pattern.ts';
import { RouteTable } from './route-table.ts';
import { SseRegistry } from './sse-registry.ts';

type HttpSettings = Settings<typeof httpDef.settings>;

/** How long stop() lets open connections finish their responses before cutting them. */
const CLOSE_GRACE_MS = 2_000;

/**
 * One HTTP server and the routes of every flow whose http source names it. Routes register when
 * the sources are created (so `validate` sees a clash); the server binds its port only on
 * listen(), once every connector of the definition has started.
 */
export class HttpConnector implements Connector {
  readonly name: string;
  readonly streams: SseRegistry;
  readonly basePath: string | undefined;
  readonly requestTimeoutMs: number;
  readonly writeTimeoutMs: number | undefined;
  /** keepAlive: false on the connector, or the connector is quiescing or stopping: every response closes its connection. */
  closeConnection: boolean;
  /** How long receiving a request may take, and how many connections are open at once (receiveLimits). */
  readonly limits: ReceiveLimits;
  /** The longest pause between body bytes. */
  readonly bodyIdleTimeoutMs: number;
  private readonly host: string;
  private readonly port: number;
  private readonly cors: CorsPolicy | undefined;
  private readonly routes = new RouteTable<HttpRoute>();
  private readonly log: Logger;
  private readonly exchanges: ExchangeHub | undefined;
  private server: Server | undefined;
  private boundPort: number | undefined;
  /** The rules each route answers by, so quiescing can tell every later response to close its connection. */
  private readonly responseRules: ResponseRules[] = [];

  constructor(
    private readonly s: HttpSettings,
    ctx: BuildContext,
  ) {
    this.name = ctx.path.replace(/^connectors\./, '');
    this.log = ctx.log;
    this.exchanges = ctx.host.exchanges;
    const env = (n: string): string | undefined => ctx.host.env(n) ?? process.env[n];
    const sandboxed = ctx.host.sandbox?.listen;
    const wanted = { host: s.host ?? (env('HTTP_HOST') || undefined), port: s.port ?? portFrom(env('HTTP_PORT')) ?? 8080 };
    const at = typeof sandboxed === 'function' ? sandboxed(this.name, wanted) : (sandboxed ?? { host: wanted.host ?? '0.0.0.0', port: wanted.port });
    this.host = at.host;
    this.port = at.port;
    this.basePath = s.basePath;
    this.requestTimeoutMs = s.requestTimeout;
    this.writeTimeoutMs = s.writeTimeout || undefined;
    this.closeConnection = s.keepAlive === false;
    this.limits = receiveLimits(s.readTimeout);
    this.bodyIdleTimeoutMs = this.limits.bodyIdleTimeoutMs;
    this.cors = CorsPolicy.from(s.cors);
    this.streams = new SseRegistry(this.name);
  }

  /** Where listen() binds, after the settings and `$HTTP_HOST` / `$HTTP_PORT`. */
  get listenAddress(): { host: string; port: number } {
    return { host: this.host, port: this.port };
  }

  /**
   * The rules a route's responses follow; their closeConnection turns true when the connector
   * quiesces, so a keep-alive client's next request is not sent to a server that no longer serves.
   */
  rulesFor(rules: Omit<ResponseRules, 'closeConnection'>): ResponseRules {
    const r: ResponseRules = { ...rules, closeConnection: this.closeConnection };
    this.responseRules.push(r);
    return r;
  }

  /** Adds a flow's route; throws naming both flows when its method and path are taken. */
  addRoute(route: HttpRoute): void {
    this.routes.add(route);
  }

  async listen(): Promise<void> {
    const { headersTimeoutMs, requestTimeoutMs, maxConnections } = this.limits;
    const options: ServerOptions = {
      headersTimeout: headersTimeoutMs,
      requestTimeout: requestTimeoutMs,
      // Node enforces both only when it sweeps its connections (every 30 s by default): kept well below them.
      connectionsCheckingInterval: Math.max(25, Math.min(1_000, Math.floor(headersTimeoutMs / 4))),
    };
    if (this.s.idleTimeout) options.keepAliveTimeout = this.s.idleTimeout;
    const server = createServer(options, this.onRequest);
    server.maxConnections = maxConnections;
    // Answering `Expect: 100-continue` ourselves lets a route refuse an oversized upload before it is sent.
    server.on('checkContinue', this.onRequest);
    await new Promise<void>((resolve, reject) => {
      server.once('error', (err: NodeJS.ErrnoException) => {
        reject(new Error(err.code === 'EADDRINUSE' ? `http connector "${this.name}": ${this.host}:${this.port} is already in use; pick another port (0 lets the OS choose)` : `http connector "${this.name}": ${errorMessage(err)}`));
      });
      server.listen(this.port, this.host, () => resolve());
    });
    server.on('error', (err) => this.log.error('http server error', { connector: this.name, error: errorMessage(err) }));
    this.server = server;
    this.boundPort = (server.address() as AddressInfo).port;
    this.log.info('http connector listening', { connector: this.name, url: this.url() });
  }

  /**
   * Stops listening so a reloaded definition can bind the port at once; open requests finish. Their
   * answers close their connections: Node keeps a connection a response leaves idle after close()
   * open, and a keep-alive client (a webhook sender's pool, a test tool) would send its next
   * request there, to the stopped flow's 503, instead of to the reloaded one on a new connection.
   */
  async quiesce(): Promise<void> {
    this.closeFromNowOn();
    this.server?.close();
    this.server?.closeIdleConnections();
  }

  private closeFromNowOn(): void {
    this.closeConnection = true;
    for (const r of this.responseRules) r.closeConnection = true;
  }

  /** Closes every stream, stops listening, and cuts connections still open after a short grace. */
  async stop(): Promise<void> {
    const server = this.server;
    if (!server) return;
    this.server = undefined;
    this.closeFromNowOn();
    this.streams.closeAll();
    const closed = new Promise<void>((resolve) => server.close(() => resolve()));
    server.closeIdleConnections();
    const grace = new Promise<void>((resolve) => setTimeout(resolve, CLOSE_GRACE_MS).unref());
    await Promise.race([closed, grace]);
    server.closeAllConnections();
  }

  describe(): Record<string, unknown> {
    const base = this.url();
    return {
      url: base,
      limits: this.limits,
      routes: this.routes.all().map((r) => ({ ...r.describe(), url: base === undefined ? undefined : base + r.pattern.text })),
    };
  }

  /** `http://127.0.0.1:PORT` once listening; a wildcard host is shown as loopback, which reaches it. */
  url(): string | undefined {
    if (this.boundPort === undefined) return undefined;
    const host = this.host === '0.0.0.0' || this.host === '' ? '127.0.0.1' : this.host === '::' ? '[::1]' : this.host.includes(':') ? `[${this.host}]` : this.host;
    return `http://${host}:${this.boundPort}`;
  }

  private readonly onRequest = (req: IncomingMessage, res: ServerResponse): void => {
    const url = req.url ?? '/';
    const q = url.indexOf('?');
    const pathname = q === -1 ? url : url.slice(0, q);
    // A client still waiting for `100 Continue` will not send its body after a refusal: close after answering.
    const close = this.closeConnection || (req.headers.expect !== undefined && expectsContinue(req));
    // Watched, the request is captured only if its run will be traced: both are shed together under load.
    let traced: boolean | undefined;
    if (this.exchanges?.active && (traced = this.exchanges.admission.admit())) watchExchange(this.exchanges, this.name, req, res);
    if (this.writeTimeoutMs !== undefined) limitWriteTime(res, this.writeTimeoutMs);
    if (this.cors !== undefined) {
      const origin = req.headers.origin;
      if (origin !== undefined) {
        if (CorsPolicy.isPreflight(req)) return this.cors.answerPreflight(origin, req, res);
        this.cors.applyToResponse(origin, res);
      }
    }
    let match;
    try {
      match = this.routes.match(pathname);
    } catch (err) {
      if (err instanceof BadPathError) return sendError(res, 400, err.message, close);
      throw err;
    }
    if (match === undefined) return sendError(res, 404, `no route for ${req.method} ${pathname}`, close);
    const route = match.routes.forMethod(req.method ?? 'GET');
    if (traced) noteExchange(req, { flow: route?.flowName, route: match.routes.pattern.text });
    if (route === undefined) {
      return sendError(res, 405, `${req.method} is not allowed on ${match.routes.pattern.text}; allowed: ${match.routes.allow}`, close, { allow: match.routes.allow });
    }
    route.handle(req, res, match.params, q === -1 ? '' : url.slice(q + 1), traced);
  };
}

/**
 * writeTimeout for ordinary responses: once the whole answer is handed to the socket, a client
 * that does not take it within the limit loses the connection. Event streams guard each write.
 */
function limitWriteTime(res: ServerResponse, ms: number): void {
  res.once('prefinish', () => {
    if (res.writableFinished) return;
    const timer = setTimeout(() => res.destroy(), ms).unref();
    res.once('close', () => clearTimeout(timer));
  });
}

export interface ReceiveLimits {
  headersTimeoutMs: number;
  requestTimeoutMs: number;
  bodyIdleTimeoutMs: number;
  maxConnections: number;
}

/**
 * The deadlines for receiving a request: RECEIVE_DEFAULTS, or with `readTimeout` set, that for
 * the headers and the whole request (an explicit setting wins, as Go's ReadTimeout covers the
 * headers) and the shorter of it and the default for a body pause.
 */
export function receiveLimits(readTimeoutMs: number | undefined): ReceiveLimits {
  if (!readTimeoutMs) return { ...RECEIVE_DEFAULTS };
  return {
    headersTimeoutMs: readTimeoutMs,
    requestTimeoutMs: readTimeoutMs,
    bodyIdleTimeoutMs: Math.min(readTimeoutMs, RECEIVE_DEFAULTS.bodyIdleTimeoutMs),
    maxConnections: RECEIVE_DEFAULTS.maxConnections,
  };
}

function portFrom(text: string | undefined): number | undefined {
  if (text === undefined || text.trim() === '') return undefined;
  const port = Number(text);
  if (!Number.isInteger(port) || port < 0 || port > 65535) throw new Error(`HTTP_PORT="${text}" is not a port number (0–65535)`);
  return port;
}

export const httpConnector = implementConnector(httpDef, (s, ctx) => new HttpConnector(s, ctx));
