import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { ServerResponse } from 'node:http';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { WebSocket } from 'ws';
import { rawRequest } from '../testing/http-request.ts';
import { StudioError } from '../studio-error.ts';
import { stubBackend } from '../testing/stub-backend.ts';
import { startWebStudio, type WebStudio } from './web-server.ts';
import { sessionCookieName } from './web-trust.ts';
import { endsThisTurn } from '../../../shared/end-of-turn.ts';
import type { RunState } from '../../../shared/studio-api.ts';

let dir: string;
let web: WebStudio;
let cookie: string;
const backend = stubBackend();

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'web-studio-'));
  mkdirSync(join(dir, 'assets'));
  writeFileSync(join(dir, 'index.html'), '<!doctype html><script type="module" src="/assets/app.js"></script>');
  writeFileSync(join(dir, 'assets', 'app.js'), 'console.log("studio")');
  web = await startWebStudio({ backend, rendererDir: dir, port: 0 });
  cookie = `${sessionCookieName(web.port)}=${web.token}`;
});

afterAll(async () => {
  await web.close();
  rmSync(dir, { recursive: true, force: true });
});

const host = (): string => `127.0.0.1:${web.port}`;

function openSocket(headers: Record<string, string>): Promise<{ ws: WebSocket; status?: number; frames: unknown[] }> {
  return new Promise((resolve) => {
    const ws = new WebSocket(`ws://127.0.0.1:${web.port}/api/events`, { headers });
    // Listening from the start: the server speaks first.
    const frames: unknown[] = [];
    ws.on('message', (m) => frames.push(JSON.parse(String(m))));
    ws.on('open', () => resolve({ ws, frames }));
    ws.on('unexpected-response', (_req, res) => resolve({ ws, status: res.statusCode, frames }));
    ws.on('error', () => {});
  });
}

describe('the web studio', () => {
  it('prints a loopback URL that carries the session token', () => {
    expect(web.url).toBe(`http://127.0.0.1:${web.port}/?token=${web.token}`);
    expect(web.token.length).toBeGreaterThanOrEqual(32);
  });

  it('refuses a request whose Host header is not a loopback name with its port (DNS rebinding)', async () => {
    for (const foreign of ['evil.example:' + web.port, `127.0.0.1:${web.port + 1}`, 'localhost', '']) {
      const res = await rawRequest(`http://${host()}/`, { headers: { host: foreign, cookie } });
      expect(res.status, foreign).toBe(403);
      expect(res.body).not.toContain('<script');
    }
  });

  it('answers to localhost and 127.0.0.1 with the right port', async () => {
    for (const name of [`localhost:${web.port}`, host()]) {
      const res = await rawRequest(`http://${host()}/`, { headers: { host: name, cookie } });
      expect(res.status, name).toBe(200);
    }
  });

  it('refuses a request without the session token, and one with a wrong token', async () => {
    const none = await rawRequest(`http://${host()}/`);
    expect(none.status).toBe(401);
    expect(none.body).toContain('session token');
    const wrong = await rawRequest(`http://${host()}/?token=nope`);
    expect(wrong.status).toBe(401);
    const api = await rawRequest(`http://${host()}/api/call/listIntegrations`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"args":[]}' });
    expect(api.status).toBe(401);
  });

  it('trades the token in the URL for an HttpOnly, SameSite=Strict cookie and a clean address', async () => {
    const res = await rawRequest(web.url);
    expect(res.status).toBe(303);
    expect(res.headers.location).toBe('/');
    const set = String(res.headers['set-cookie']);
    expect(set).toContain(`${sessionCookieName(web.port)}=${web.token}`);
    expect(set).toContain('HttpOnly');
    expect(set).toContain('SameSite=Strict');
    expect(set).not.toMatch(/Domain=/i);
  });

  it('serves the UI with the studio CSP (scripts only from itself)', async () => {
    const res = await rawRequest(`http://${host()}/`, { headers: { cookie } });
    expect(res.status).toBe(200);
    expect(res.headers['content-security-policy']).toContain("script-src 'self'");
    expect(res.headers['content-security-policy']).not.toContain('unsafe-eval');
    const js = await rawRequest(`http://${host()}/assets/app.js`, { headers: { cookie } });
    expect(js.headers['content-type']).toContain('javascript');
    const escape = await rawRequest(`http://${host()}/assets/..%2F..%2F..%2Fetc%2Fpasswd`, { headers: { cookie } });
    expect(escape.body).not.toContain('root:');
  });

  it('runs a StudioApi call with the cookie and reports a failure as a message', async () => {
    const headers = { cookie, 'content-type': 'application/json' };
    const ok = await rawRequest(`http://${host()}/api/call/listIntegrations`, { method: 'POST', headers, body: '{"args":[]}' });
    expect(JSON.parse(ok.body)).toEqual({ ok: true, value: [{ id: 'orders-api', name: 'orders-api', definitionFiles: ['orders.yaml'], testFiles: [], resourceFiles: [] }] });
    const unknown = await rawRequest(`http://${host()}/api/call/constructor`, { method: 'POST', headers, body: '{"args":[]}' });
    expect(unknown.status).toBe(400);
    expect(JSON.parse(unknown.body).error).toContain('is not a studio method');
  });

  it('answers a call at the end of its turn, as the runtime and the platform do: headers at once, the body with the rest of the turn, in full', async () => {
    // What each studio answer looked like right after its status was written, before anything
    // else of the turn ran: still open and queued for the turn's end, or already ended.
    const seen: Array<{ url: string | undefined; ended: boolean; queued: boolean }> = [];
    const original = ServerResponse.prototype.writeHead;
    const spy = vi.spyOn(ServerResponse.prototype, 'writeHead').mockImplementation(function (this: ServerResponse, ...args: Parameters<ServerResponse['writeHead']>) {
      const res = original.apply(this, args);
      queueMicrotask(() => seen.push({ url: this.req.url, ended: this.writableEnded, queued: endsThisTurn(this) }));
      return res;
    });
    try {
      const headers = { cookie, 'content-type': 'application/json' };
      const ok = await rawRequest(`http://${host()}/api/call/listIntegrations`, { method: 'POST', headers, body: '{"args":[]}' });
      expect(JSON.parse(ok.body)).toMatchObject({ ok: true, value: [{ id: 'orders-api' }] });
      expect(ok.headers['content-length']).toBe(String(Buffer.byteLength(ok.body)));
      const refused = await rawRequest(`http://${host()}/api/call/listIntegrations`, { headers: { cookie } });
      expect([refused.status, JSON.parse(refused.body).error]).toEqual([405, 'studio calls are POST requests']);
    } finally {
      spy.mockRestore();
    }
    expect(seen).toEqual([
      { url: '/api/call/listIntegrations', ended: false, queued: true },
      { url: '/api/call/listIntegrations', ended: false, queued: true },
    ]);
  });

  it('answers a failed call with its kind and the matching status: 404 not found, 409 conflict, 500 internal', async () => {
    const headers = { cookie, 'content-type': 'application/json' };
    const { readFile, createIntegration, runStates } = backend.api;
    backend.api.readFile = async () => {
      throw StudioError.notFound('no file "x.yaml" in integration "shop"');
    };
    backend.api.createIntegration = async () => {
      throw StudioError.conflict('the workspace already has a folder "shop"; pick another name');
    };
    backend.api.runStates = async () => {
      throw new TypeError("Cannot read properties of undefined (reading 'status')");
    };
    const logged = vi.spyOn(console, 'error').mockImplementation(() => {});
    try {
      const call = (method: string, args: unknown[] = []) => rawRequest(`http://${host()}/api/call/${method}`, { method: 'POST', headers, body: JSON.stringify({ args }) });
      const missing = await call('readFile', ['shop', 'x.yaml']);
      expect([missing.status, JSON.parse(missing.body)]).toEqual([404, { ok: false, error: 'no file "x.yaml" in integration "shop"', kind: 'not-found' }]);
      const taken = await call('createIntegration', ['shop']);
      expect([taken.status, JSON.parse(taken.body).kind]).toEqual([409, 'conflict']);
      const bug = await call('runStates');
      expect([bug.status, JSON.parse(bug.body).kind]).toEqual([500, 'internal']);
      expect(String(logged.mock.calls[0]?.[1])).toMatch(/^TypeError: Cannot read properties of undefined[\s\S]*\n\s+at /);
    } finally {
      logged.mockRestore();
      Object.assign(backend.api, { readFile, createIntegration, runStates });
    }
  });

  it('refuses calls from a foreign Origin and calls that are not JSON', async () => {
    const foreign = await rawRequest(`http://${host()}/api/call/runStates`, {
      method: 'POST',
      headers: { cookie, origin: 'http://evil.example', 'content-type': 'application/json' },
      body: '{"args":[]}',
    });
    expect(foreign.status).toBe(403);
    const form = await rawRequest(`http://${host()}/api/call/runStates`, { method: 'POST', headers: { cookie, 'content-type': 'text/plain' }, body: '{"args":[]}' });
    expect(form.status).toBe(415);
  });

  it('opens the event socket only with the cookie, a loopback Host and our Origin', async () => {
    const origin = `http://${host()}`;
    expect((await openSocket({ origin })).status).toBe(401);
    expect((await openSocket({ origin: 'http://evil.example', cookie })).status).toBe(403);
    expect((await openSocket({ origin, cookie, host: 'rebound.example:' + web.port })).status).toBe(403);
    const { ws, status, frames } = await openSocket({ origin, cookie });
    expect(status).toBeUndefined();
    const two = new Promise<void>((resolve) => ws.on('message', () => frames.length === 2 && resolve()));
    backend.emit('runState', { integration: 'orders-api', status: 'running', routes: [], problems: [], generation: 1, since: 1 });
    await two;
    // First the launch that answers, so a window from an earlier launch knows the studio restarted.
    expect(frames[0]).toEqual({ hello: { launchId: 'stub', runStates: [] } });
    expect(frames[1]).toMatchObject({ event: 'runState', payload: { integration: 'orders-api', status: 'running' } });
    ws.close();
  });

  it('begins the event socket with the run states as of its subscription, so a state changed just before is not missed', async () => {
    const origin = `http://${host()}`;
    const started: RunState = { integration: 'just-started', status: 'running', routes: [], problems: [], generation: 1, since: 5 };
    // The integration starts while the window's socket is being opened: no event reaches this socket.
    const runStates = backend.runStates;
    backend.runStates = () => [started];
    try {
      const { ws, frames } = await openSocket({ origin, cookie });
      const two = new Promise<void>((resolve) => ws.on('message', () => frames.length === 2 && resolve()));
      backend.emit('runState', { ...started, status: 'stopped', since: 6 });
      await two;
      expect(frames[0]).toEqual({ hello: { launchId: 'stub', runStates: [started] } });
      // What changes after the subscription comes as an event behind the hello.
      expect(frames[1]).toMatchObject({ event: 'runState', payload: { integration: 'just-started', status: 'stopped' } });
      ws.close();
    } finally {
      backend.runStates = runStates;
    }
  });

  it('keeps the test hooks off unless the test harness enables them', async () => {
    for (const hook of ['feed-burst', 'untraced-runs', 'seed-runs', 'run-burst']) {
      const res = await rawRequest(`http://${host()}/__test/${hook}`, { method: 'POST', headers: { cookie, 'content-type': 'application/json' }, body: '{}' });
      expect(res.status, hook).toBe(405);
    }
  });
});

describe('the web studio with a session key kept across launches', () => {
  it('lets a tab of the previous launch back in with its cookie, while the URL token is new each launch', async () => {
    const key = 'k'.repeat(43);
    const first = await startWebStudio({ backend, rendererDir: dir, port: 0, sessionKey: key });
    const port = first.port;
    const traded = await rawRequest(first.url);
    const cookieOfFirst = String(traded.headers['set-cookie']).split(';')[0];
    expect(cookieOfFirst).toBe(`${sessionCookieName(port)}=${key}`);
    expect(cookieOfFirst).not.toContain(first.token);
    await first.close();
    const second = await startWebStudio({ backend, rendererDir: dir, port, sessionKey: key });
    try {
      expect(second.token).not.toBe(first.token);
      const call = await rawRequest(`http://127.0.0.1:${port}/api/call/runStates`, { method: 'POST', headers: { cookie: cookieOfFirst, 'content-type': 'application/json' }, body: '{"args":[]}' });
      expect(call.status).toBe(200);
      // The old URL's token is not accepted by the new launch.
      expect((await rawRequest(first.url)).status).toBe(401);
    } finally {
      await second.close();
    }
  });
});
