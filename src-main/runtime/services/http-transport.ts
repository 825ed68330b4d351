import { readFileSync, statSync } from 'node:fs';
import { Agent, type Dispatcher } from 'undici';
import type { ApiConfig } from './api-config.ts';
import { DEFAULT_TIMEOUT_MS, type PlatformRequest, type PlatformResponse, type PlatformTransport } from './api-http.ts';
import { PlatformUnreachableError } from './platform-error.ts';

const TOKEN_FILE_CHECK_MS = 1000;

/**
 * The delegation API over HTTP: one keep-alive pool, the bearer token (re-read when its file
 * changes), static headers, mutual TLS. It never logs a header, so credentials stay out of logs.
 */
export class HttpTransport implements PlatformTransport {
  private readonly agent: Dispatcher;
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
    this.agent = new Agent({
      keepAliveTimeout: 30_000,
      connect: config.tls ? { cert: config.tls.cert, key: config.tls.key, ca: config.tls.ca } : undefined,
    });
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
    await Promise.race([this.agent.close(), new Promise((r) => setTimeout(r, 2000).unref())]);
    await this.agent.destroy().catch(() => {});
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
      // undici's own timeouts bound the wait (no timer per call): headers within timeoutMs, then
      // no pause in the body longer than that.
      const res = await this.agent.request({
        origin: this.origin,
        path: url,
        method: req.method,
        headers,
        body,
        signal: req.signal,
        headersTimeout: timeoutMs,
        bodyTimeout: timeoutMs,
      });
      const bytes = new Uint8Array(await res.body.arrayBuffer());
      return response(route, res.statusCode, res.headers, bytes);
    } catch (err) {
      if (req.signal?.aborted) throw req.signal.reason ?? err;
      const code = (err as { code?: string }).code;
      if (code === 'UND_ERR_HEADERS_TIMEOUT' || code === 'UND_ERR_BODY_TIMEOUT') {
        throw new PlatformUnreachableError(route, new Error(`no answer within ${timeoutMs} ms`));
      }
      throw new PlatformUnreachableError(route, err);
    }
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

