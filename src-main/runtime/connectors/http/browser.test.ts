import { existsSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { chromium, type Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serveYaml, type Served } from './test-support/serve-yaml.ts';

// `npm test` finds or installs a Chromium and passes it as CHROMIUM_PATH; run alone, Debian's is tried.
const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const available = existsSync(CHROMIUM);
if (!available) console.log(`browser tests skipped: ${CHROMIUM} is not installed (npm test installs one; or set CHROMIUM_PATH)`);

/**
 * A page on one origin calling the runtime on another, as a web app calls its API: CORS
 * preflight, a credentialed request, and an EventSource stream authenticated by a cookie.
 */
describe.skipIf(!available)('a browser on another origin (Chromium)', () => {
  let page: Server;
  let pageOrigin: string;
  let api: Served;
  let browser: Browser;

  beforeAll(async () => {
    page = createServer((_req, res) => res.writeHead(200, { 'content-type': 'text/html' }).end('<!doctype html><title>app</title>'));
    await new Promise<void>((resolve) => page.listen(0, '127.0.0.1', resolve));
    pageOrigin = `http://127.0.0.1:${(page.address() as AddressInfo).port}`;
    api = await serveYaml(`connectors:
  http:
    type: http
    host: 127.0.0.1
    port: 0
    cors: {allowedOrigins: ['${pageOrigin}'], allowCredentials: true, exposedHeaders: [X-Total], maxAge: 1s}
flows:
  items:
    source: {type: http, path: /items, methods: [PUT], headers: [Cookie, X-Tenant], responseHeaders: [X-Total]}
    steps:
      - set:
          vars: {X-Total: '1'}
          body: '{"cookie": vars.Cookie, "tenant": vars["X-Tenant"], "got": body}'
  progress:
    source: {type: http, path: /progress, methods: [GET], headers: [Cookie], sse: {enabled: true, heartbeat: 60ms, finalEvent: true, finalEventName: done}}
    steps:
      - filter: {condition: '"Cookie" in vars && vars.Cookie.contains("session=s3cret")', reject: {status: 401, body: '{"error": "no session"}'}}
      - sse-event: {event: progress, data: '{"percent": 50}'}
      - wait: {for: 200ms}
      - sse-event: {event: progress, data: '{"percent": 100}'}
      - set: {body: '{"result": "ok"}'}
`);
    browser = await chromium.launch({
      executablePath: CHROMIUM,
      headless: true,
      args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'],
    });
  });
  afterAll(async () => {
    await browser?.close();
    await api?.stop();
    await new Promise((resolve) => page?.close(resolve));
  });

  async function openApp() {
    const context = await browser.newContext();
    await context.addCookies([{ name: 'session', value: 's3cret', url: api.url, httpOnly: true, sameSite: 'Lax' }]);
    const tab = await context.newPage();
    const cdp = await context.newCDPSession(tab);
    const methods: string[] = [];
    await cdp.send('Network.enable');
    cdp.on('Network.requestWillBeSent', (e) => methods.push(`${e.request.method} ${new URL(e.request.url).pathname}`));
    await tab.goto(pageOrigin);
    return { context, tab, methods };
  }

  it('passes a preflight and reads a credentialed cross-origin response with an exposed header', async () => {
    const { context, tab, methods } = await openApp();
    const got = await tab.evaluate(async (url) => {
      const res = await fetch(`${url}/items`, {
        method: 'PUT',
        credentials: 'include',
        headers: { 'content-type': 'application/json', 'x-tenant': 'acme' },
        body: JSON.stringify({ qty: 2 }),
      });
      return { status: res.status, total: res.headers.get('x-total'), body: await res.json() };
    }, api.url);
    expect(got).toEqual({ status: 200, total: '1', body: { cookie: 'session=s3cret', tenant: 'acme', got: { qty: 2 } } });
    expect(methods).toContain('OPTIONS /items');
    await context.close();
  });

  it('delivers named events and the final frame to an EventSource, and heartbeats on the wire', async () => {
    const { context, tab } = await openApp();
    const events = await tab.evaluate(
      (url) =>
        new Promise<string[][]>((resolve, reject) => {
          const got: string[][] = [];
          const source = new EventSource(`${url}/progress`, { withCredentials: true });
          source.addEventListener('progress', (e) => got.push(['progress', (e as MessageEvent).data]));
          source.addEventListener('done', (e) => {
            got.push(['done', (e as MessageEvent).data]);
            source.close();
            resolve(got);
          });
          source.onerror = () => {
            source.close();
            reject(new Error(`EventSource failed after ${JSON.stringify(got)}`));
          };
        }),
      api.url,
    );
    expect(events).toEqual([
      ['progress', '{"percent":50}'],
      ['progress', '{"percent":100}'],
      ['done', '{"result":"ok"}'],
    ]);
    // EventSource hides comments, so the same stream is read raw to see the `: ping` lines arrive.
    const wire = await tab.evaluate(async (url) => {
      const res = await fetch(`${url}/progress`, { credentials: 'include' });
      return { type: res.headers.get('content-type'), text: await res.text() };
    }, api.url);
    expect(wire.type).toBe('text/event-stream');
    expect(wire.text).toMatch(/^event: progress\ndata: \{"percent":50\}\n\n(: ping\n\n)+event: progress/);
    await context.close();
  });

  it('refuses a stream without the session cookie with the filter’s 401, readable cross-origin', async () => {
    const context = await browser.newContext();
    const tab = await context.newPage();
    await tab.goto(pageOrigin);
    const got = await tab.evaluate(async (url) => {
      const res = await fetch(`${url}/progress`, { credentials: 'include' });
      return { status: res.status, body: await res.json() };
    }, api.url);
    expect(got).toEqual({ status: 401, body: { error: 'no session' } });
    await context.close();
  });
});
