import { readFileSync, statSync } from 'node:fs';
import { Agent as HttpAgent, request as httpRequest, type ClientRequest, type IncomingMessage, type OutgoingHttpHeaders } from 'node:http';
import type { ApiConfig } from './api-config.ts';
import { DEFAULT_TIMEOUT_MS, type PlatformRequest, type PlatformResponse, type PlatformTransport } from './api-http.ts';
import { PlatformUnreachableError } from './platform-error.ts';

const TOKEN_FILE_CHECK_MS = 1000;
/** How long an idle connection is kept (shorter when the platform's Keep-Alive header says so). */
const KEEP_ALIVE_MS = 30_000;
/** How long close() lets calls still open finish before it cuts them. */
const CLOSE_GRACE_MS = 2000;

/**
 * The delegation API over HTTP: one keep-alive pool, the bearer token (re-read when its file
 * changes), static headers, mutual TLS. It never logs a header, so credentials stay out of logs.
 *
 * Node's own http client, not undici: undici is a megabyte of JavaScript whose loading was the
 * largest single cost of a runtime's start (every runtime with a platform makes its first call
 * before it serves), and these calls need only a keep-alive pool and a timeout.
 */
export class HttpTransport implements PlatformTransport {
  private readonly agent: HttpAgent;
  private readonly request: typeof httpRequest;
  /** Calls on their way, cut by close() once its grace is over. */
  private readonly open = new Set<ClientRequest>();
  /** close() waiting for the last open call. */
  private whenIdle: (() => void) | undefined;
  private token: string | undefined;
  private tokenMtime = -1;
  private tokenCheckedAt = 0;
  private closed = false;
  private readonly origin: string;
  /** A path prefix of the base URL (a platform behind a reverse proxy), or ''. */
  private readonly basePath: string;

  constructor(private readonly config: ApiConfig) {
    const base = new URL(config.baseUrl);
    this.origin = base.origin;
    this.basePath = base.pathname.replace(/\/+$/, '');
    if (base.protocol === 'https:') {
      // node:https, and TLS with it, only for a platform over https: loading it is 4 ms of a start.
      const { Agent: HttpsAgent, request: httpsRequest } = process.getBuiltinModule('node:https');
      this.agent = new HttpsAgent({ keepAlive: true, timeout: KEEP_ALIVE_MS, ...(config.tls ? { cert: config.tls.cert, key: config.tls.key, ca: config.tls.ca } : {}) });
      this.request = httpsRequest;
    } else {
      this.agent = new HttpAgent({ keepAlive: true, timeout: KEEP_ALIVE_MS });
      this.request = httpRequest;
    }
    this.token = config.token;
    if (config.tokenFile) this.readTokenFile(true);
  }

  async call(req: PlatformRequest): Promise<PlatformResponse> {
    const route = `${req.method} ${req.path}`;
    if (this.closed) throw new PlatformUnreachableError(route, new Error('the platform client is closed'));
    const url = this.basePath + req.path + queryString(req.query);
    const headers: Record<string, string> = { ...this.config.headers, ...req.headers };
    let body: Uint8Array | string | undefined;
    if (req.json !== undefined || req.jsonText !== undefined) {
      body = req.jsonText ?? JSON.stringify(req.json);
      headers['content-type'] = 'application/json';
    } else if (req.bytes !== undefined) {
      body = req.bytes;
      headers['content-type'] = 'application/octet-stream';
    }
    let res = await this.send(route, url, req, headers, body);
    // A rotated token file may have changed since the last check: read it now and try once more.
    if (res.status === 401 && this.config.tokenFile && this.readTokenFile(true)) res = await this.send(route, url, req, headers, body);
    if (res.status === 501) req.capability?.turnOff(`${route} answered 501`);
    return res;
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    // Requests still open (a long poll a source forgot) must not hold the process.
    if (this.open.size > 0) {
      await new Promise<void>((resolve) => {
        const timer = setTimeout(done, CLOSE_GRACE_MS).unref();
        function done(): void {
          clearTimeout(timer);
          resolve();
        }
        this.whenIdle = done;
      });
    }
    for (const req of this.open) req.destroy(new Error('the platform client is closed'));
    this.agent.destroy();
  }

  private async send(
    route: string,
    url: string,
    req: PlatformRequest,
    baseHeaders: Record<string, string>,
    body: Uint8Array | string | undefined,
  ): Promise<PlatformResponse> {
    const headers = { ...baseHeaders };
    const token = this.currentToken();
    if (token) headers.authorization = `Bearer ${token}`;
    const timeoutMs = req.timeoutMs ?? DEFAULT_TIMEOUT_MS;
    try {
      return await this.exchange(route, url, req, headers, body, timeoutMs);
    } catch (err) {
      if (req.signal?.aborted) throw req.signal.reason ?? err;
      throw new PlatformUnreachableError(route, err);
    }
  }

  /**
   * One request on the pool. The timeout is the socket's idle time, as undici's were: no answer
   * within timeoutMs, then no pause in the body longer than that (no timer of our own per call).
   */
  private exchange(route: string, url: string, req: PlatformRequest, headers: OutgoingHttpHeaders, body: Uint8Array | string | undefined, timeoutMs: number): Promise<PlatformResponse> {
    return new Promise((resolve, reject) => {
      const outgoing = this.request(this.origin + url, { method: req.method, headers, agent: this.agent, signal: req.signal, timeout: timeoutMs });
      this.open.add(outgoing);
      let finished = false;
      const finish = (err: unknown, res?: PlatformResponse): void => {
        if (finished) return;
        finished = true;
        this.open.delete(outgoing);
        if (this.open.size === 0) this.whenIdle?.();
        if (err) reject(err);
        else resolve(res!);
      };
      outgoing.on('timeout', () => outgoing.destroy(new Error(`no answer within ${timeoutMs} ms`)));
      outgoing.on('error', (err) => finish(err));
      outgoing.on('response', (res: IncomingMessage) => {
        const chunks: Buffer[] = [];
        let length = 0;
        res.on('data', (chunk: Buffer) => {
          chunks.push(chunk);
          length += chunk.length;
        });
        res.on('error', (err) => finish(err));
        // After 'end' this changes nothing; before it, the connection went mid-answer.
        res.on('close', () => finish(new Error('the platform closed the connection before the end of its answer')));
        res.on('end', () => {
          // A copy of its own: the chunks are views into the socket's larger buffers.
          const bytes = new Uint8Array(length);
          let at = 0;
          for (const c of chunks) {
            bytes.set(c, at);
            at += c.length;
          }
          finish(undefined, response(route, res.statusCode ?? 0, res.headers, bytes));
        });
      });
      outgoing.end(body);
    });
  }

  private currentToken(): string | undefined {
    if (this.config.tokenFile && Date.now() - this.tokenCheckedAt >= TOKEN_FILE_CHECK_MS) this.readTokenFile(false);
    return this.token;
  }

  /** Re-reads the token file when its mtime changed (or when forced); true when the token changed. */
  private readTokenFile(force: boolean): boolean {
    const file = this.config.tokenFile!;
    this.tokenCheckedAt = Date.now();
    try {
      const mtime = statSync(file).mtimeMs;
      if (!force && mtime === this.tokenMtime) return false;
      this.tokenMtime = mtime;
      const next = readFileSync(file, 'utf8').trim() || undefined;
      const changed = next !== this.token;
      this.token = next;
      return changed;
    } catch {
      // A missing file (mid-rotation) keeps the last token; the next check tries again.
      return false;
    }
  }
}

function response(route: string, status: number, headers: Record<string, string | string[] | undefined>, body: Uint8Array): PlatformResponse {
  return {
    status,
    route,
    body,
    header(name) {
      const v = headers[name.toLowerCase()];
      return Array.isArray(v) ? v[0] : v;
    },
    json<T>(): T {
      return JSON.parse(Buffer.from(body).toString('utf8')) as T;
    },
  };
}

function queryString(query: PlatformRequest['query']): string {
  if (!query) return '';
  const params = new URLSearchParams();
  for (const [k, v] of Object.entries(query)) if (v !== undefined) params.set(k, String(v));
  const text = params.toString();
  return text ? `?${text}` : '';
}

