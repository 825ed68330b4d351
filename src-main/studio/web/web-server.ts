import { randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { Duplex } from 'node:stream';
import { WebSocketServer } from 'ws';
import { JsonTooDeepError, parseBoundedJson } from '../../../shared/bounded-json.ts';
import { studioContentSecurityPolicy } from '../../../shared/content-security-policy.ts';
import { endsThisTurn, endThisTurn } from '../../../shared/end-of-turn.ts';
import { addNotRecorded, NOT_RECORDED, noneNotRecorded } from '../../../shared/feed-events.ts';
import { studioWeb } from '../../../shared/studio-api.ts';
import { studioErrorStatus } from '../../../shared/studio-errors.ts';
import type { StudioBackend } from '../studio-backend.ts';
import { dispatchStudioCall } from '../studio-dispatch.ts';
import { generateSyntheticRuns, generateSyntheticTraces } from '../synthetic-feed.ts';
import { seedRuns } from '../traces/seed-runs.ts';
import { attachEventSocket } from './event-socket.ts';
import { serveStatic } from './static-files.ts';
import { hasSession, missingSessionMessage, refusal, sessionCookie, tokenMatches, type WebTrust } from './web-trust.ts';

export interface WebStudioOptions {
  backend: StudioBackend;
  /** The built renderer (dist-renderer/). */
  rendererDir: string;
  /** 0 picks a free port. */
  port?: number;
  /** Per-launch session token; minted when absent. */
  token?: string;
  /**
   * The session cookie's value after the token in the URL was traded for it. Absent: the token
   * (a tab lives as long as the launch). `flow-studio serve` keeps one in the data folder, so a
   * tab opened before a restart reloads into the new launch instead of asking for a new URL.
   */
  sessionKey?: string;
  /** Enables /__test/ routes (synthetic feed load); only ever set by the e2e harness. */
  testHooks?: boolean;
}

export interface WebStudio {
  /** The URL to open, carrying the session token. */
  url: string;
  origin: string;
  port: number;
  token: string;
  close(): Promise<void>;
}

const MAX_BODY_BYTES = 16 * 1024 * 1024;

const SECURITY_HEADERS = {
  'Content-Security-Policy': studioContentSecurityPolicy,
  'X-Content-Type-Options': 'nosniff',
  'Referrer-Policy': 'no-referrer',
  'X-Frame-Options': 'DENY',
  'Cross-Origin-Opener-Policy': 'same-origin',
  'Cross-Origin-Resource-Policy': 'same-origin',
};

/**
 * The web-mode transport of the StudioApi: the built UI, one POST per call, one WebSocket for
 * events. Binds 127.0.0.1 only and refuses any request without a loopback Host (DNS rebinding)
 * or without the session token.
 */
export async function startWebStudio(options: WebStudioOptions): Promise<WebStudio> {
  const token = options.token ?? randomBytes(24).toString('base64url');
  const trust: WebTrust = { port: 0, token, session: options.sessionKey ?? token };
  const sockets = new WebSocketServer({ noServer: true, maxPayload: 64 * 1024 });
  const server = createServer((req, res) => {
    for (const [k, v] of Object.entries(SECURITY_HEADERS)) res.setHeader(k, v);
    handle(req, res).catch((err: unknown) => {
      if (!res.headersSent) text(res, 500, `internal error: ${err instanceof Error ? err.message : String(err)}`);
      // Answered in full already (its bytes go out at the end of the turn): it goes out as it is.
      else if (!endsThisTurn(res)) res.destroy();
    });
  });

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const refused = refusal(req, trust);
    if (refused) return text(res, refused.status, refused.message);
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    const offered = url.searchParams.get('token');
    if (req.method === 'GET' && offered !== null) {
      if (!tokenMatches(offered, token)) return text(res, 401, missingSessionMessage);
      // Trade the token in the URL for a cookie and drop it from the address bar and history.
      url.searchParams.delete('token');
      res.writeHead(303, { 'Set-Cookie': sessionCookie(trust), Location: url.pathname + url.search, 'Cache-Control': 'no-store' });
      return void res.end();
    }
    if (!hasSession(req, trust)) return text(res, 401, missingSessionMessage);

    if (url.pathname.startsWith(studioWeb.callPrefix)) return call(req, res, url.pathname.slice(studioWeb.callPrefix.length));
    if (options.testHooks && url.pathname === '/__test/feed-burst' && req.method === 'POST') {
      const load = (await readJson(req)) as { perSecond?: number; seconds?: number; tracesDropped?: number; runsNotTraced?: number };
      // A runtime that did not record this much during the burst (records its export dropped,
      // runs left untraced), counted as the run manager registers a runtime's counters.
      const totals = noneNotRecorded();
      const stops = NOT_RECORDED.map((kind) => options.backend.feed.addDropCounter(() => totals[kind], kind));
      const stopCounting = (): void => stops.forEach((stop) => stop());
      addNotRecorded(totals, { tracesDropped: Number(load.tracesDropped ?? 0), runsNotTraced: Number(load.runsNotTraced ?? 0) });
      try {
        const sent = await generateSyntheticTraces(options.backend.feed, { perSecond: Number(load.perSecond ?? 2000), seconds: Number(load.seconds ?? 10) });
        return json(res, 200, { sent });
      } finally {
        stopCounting();
      }
    }
    if (options.testHooks && url.pathname === '/__test/untraced-runs' && req.method === 'POST' && options.backend.inspection) {
      // A runtime of `integration` that answered `count` runs untraced under load, then stopped.
      const load = (await readJson(req)) as { integration?: string; count?: number };
      let shed = 0;
      const stop = options.backend.inspection.runs.countUntraced(String(load.integration ?? 'load'), () => shed);
      shed = Number(load.count ?? 0);
      stop();
      return json(res, 200, { notTraced: options.backend.inspection.runs.notTraced() });
    }
    if (options.testHooks && url.pathname === '/__test/run-burst' && req.method === 'POST' && options.backend.inspection) {
      const load = (await readJson(req)) as { perSecond?: number; seconds?: number };
      const sent = await generateSyntheticRuns(options.backend.feed, options.backend.inspection.runs, { perSecond: Number(load.perSecond ?? 2000), seconds: Number(load.seconds ?? 10) });
      return json(res, 200, { sent });
    }
    if (options.testHooks && url.pathname === '/__test/seed-runs' && req.method === 'POST' && options.backend.inspection) {
      return json(res, 200, seedRuns(options.backend.inspection.runs, Number(((await readJson(req)) as { count?: number }).count ?? 0)));
    }
    if (req.method !== 'GET' && req.method !== 'HEAD') return text(res, 405, `${req.method} is not served here`);
    serveStatic(options.rendererDir, url.pathname, res);
  }

  async function call(req: IncomingMessage, res: ServerResponse, method: string): Promise<void> {
    if (req.method !== 'POST') return json(res, 405, { ok: false, error: 'studio calls are POST requests', kind: 'user' });
    // A JSON content type cannot be sent cross-site without a preflight we never answer.
    if (!String(req.headers['content-type'] ?? '').startsWith('application/json')) {
      return json(res, 415, { ok: false, error: 'studio calls send Content-Type: application/json', kind: 'user' });
    }
    let body: unknown;
    try {
      body = await readJson(req);
    } catch (err) {
      return json(res, 400, { ok: false, error: err instanceof Error ? err.message : String(err), kind: 'user' });
    }
    let name: string;
    try {
      name = decodeURIComponent(method);
    } catch {
      return json(res, 400, { ok: false, error: `the call name "${method.slice(0, 80)}" is not valid percent-encoding; call ${studioWeb.callPrefix}<method name>`, kind: 'user' });
    }
    const args = body && typeof body === 'object' ? (body as { args?: unknown }).args : undefined;
    const sent = sentRequestId(name, args);
    // The page waiting on a request it sent went away (a reload, a closed tab): nobody can watch
    // or stop its stream any more, so it ends, recorded as interrupted rather than ended by the server.
    const onGone = (): void => {
      if (sent !== undefined && !res.writableFinished) void options.backend.api.stopRequest(sent, 'interrupted').catch(() => {});
    };
    res.once('close', onGone);
    const result = await dispatchStudioCall(options.backend.api, name, args ?? []);
    json(res, result.ok ? 200 : studioErrorStatus[result.kind], result);
  }

  server.on('upgrade', (req: IncomingMessage, socket: Duplex, head: Buffer) => {
    const refused = refusal(req, trust) ?? (hasSession(req, trust) ? undefined : { status: 401, message: missingSessionMessage });
    const path = new URL(req.url ?? '/', 'http://127.0.0.1').pathname;
    if (refused || path !== studioWeb.events) {
      const status = refused?.status ?? 404;
      socket.end(`HTTP/1.1 ${status} ${status === 404 ? 'Not Found' : status === 401 ? 'Unauthorized' : 'Forbidden'}\r\nConnection: close\r\nContent-Length: 0\r\n\r\n`);
      return;
    }
    sockets.handleUpgrade(req, socket, head, (ws) => attachEventSocket(ws, options.backend));
  });

  await listen(server, options.port ?? 0);
  const address = server.address();
  trust.port = typeof address === 'object' && address ? address.port : 0;
  const origin = `http://127.0.0.1:${trust.port}`;
  return {
    url: `${origin}/?token=${token}`,
    origin,
    port: trust.port,
    token,
    close: async () => {
      for (const ws of sockets.clients) ws.terminate();
      sockets.close();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

function listen(server: Server, port: number): Promise<void> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', () => {
      server.off('error', reject);
      resolve();
    });
  });
}

function readJson(req: IncomingMessage): Promise<unknown> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (c: Buffer) => {
      size += c.length;
      if (size > MAX_BODY_BYTES) {
        reject(new Error(`request body over ${MAX_BODY_BYTES} bytes`));
        req.destroy();
      } else chunks.push(c);
    });
    req.on('end', () => {
      try {
        const raw = Buffer.concat(chunks).toString('utf8');
        resolve(raw === '' ? {} : parseBoundedJson(raw));
      } catch (err) {
        reject(new Error(err instanceof JsonTooDeepError ? `request body is refused: ${err.message}` : 'request body is not JSON'));
      }
    });
    req.on('error', reject);
  });
}

/**
 * Answers as the runtime's routes and the platform do: status and headers now, the bytes with the
 * rest of this turn's (shared/end-of-turn.ts), so the renderer's calls answered in one turn (a
 * burst of them when a panel opens) reach it back to back instead of waking it once each.
 */
function text(res: ServerResponse, status: number, body: string): void {
  res.writeHead(status, { 'Content-Type': 'text/plain; charset=utf-8', 'Content-Length': Buffer.byteLength(body), 'Cache-Control': 'no-store' });
  endThisTurn(res, body);
}

function json(res: ServerResponse, status: number, body: unknown): void {
  const payload = JSON.stringify(body);
  res.writeHead(status, { 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(payload), 'Cache-Control': 'no-store' });
  endThisTurn(res, payload);
}

/** The id of the request a call sends (the composer's send, a capture's replay), which a page can stop. */
function sentRequestId(method: string, args: unknown): string | undefined {
  if (!Array.isArray(args)) return undefined;
  const id: unknown = method === 'sendRequest' ? (args[0] as { id?: unknown } | undefined)?.id : method === 'replayCapture' ? args[1] : undefined;
  return typeof id === 'string' && id !== '' ? id : undefined;
}
