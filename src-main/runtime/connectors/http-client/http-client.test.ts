import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { ManualClock, type Clock } from '../../../../shared/clock.ts';
import type { Runtime } from '../../core/runtime.ts';
import { problemsOf, startYaml } from '../../testing/load-yaml.ts';
import { json, startRecordingServer, type RecordingServer } from './testing/recording-server.ts';

let server: RecordingServer;
let runtime: Runtime | undefined;

beforeAll(async () => {
  server = await startRecordingServer();
});
afterAll(() => server.close());
afterEach(async () => {
  await runtime?.stop();
  runtime = undefined;
  server.reset();
  server.handle((_req, res) => json(res, 200, { ok: true }));
});

/** Starts a definition with one `api` connector (extra settings indented under it) and one flow `call`. */
async function start(connector: string, steps = '- rest: {connector: api, path: /things}', clock?: Clock): Promise<Runtime> {
  ({ runtime } = await startYaml(`connectors:
  api:
    type: http-client
    baseURL: ${server.url}/v1
${connector.replace(/^/gm, '    ')}
flows:
  call:
    steps:
${steps.replace(/^/gm, '      ')}
`, {}, clock));
  return runtime;
}

const CALL = '- rest: {connector: api, path: /things}';

/**
 * Resolves once the runtime's clock holds exactly one timer and `due(ms from now)` says it is the
 * one awaited (a retry wait after a 429, an attempt's timeout): polled in real time, bounded.
 */
async function timerSet(clock: ManualClock, due: (inMs: number) => boolean): Promise<void> {
  for (const deadline = Date.now() + 15_000; Date.now() < deadline; await new Promise((r) => setTimeout(r, 5))) {
    const next = clock.nextDue();
    if (clock.pending === 1 && next !== undefined && due(next - clock.now())) return;
  }
  throw new Error(`no such timer within 15 s; next is due in ${(clock.nextDue() ?? NaN) - clock.now()} ms`);
}

/**
 * Whether a run still waits on the one timer `timerSet` found, due `leftMs` from now. Where the
 * upstream does not answer meanwhile, only that timer can move the run on (a retry, a timeout):
 * while it is pending the run cannot have gone further, however slow the machine.
 */
function stillWaiting(clock: ManualClock, settled: () => boolean, leftMs: number): boolean {
  return !settled() && clock.pending === 1 && clock.nextDue() === clock.now() + leftMs;
}

/** Tracks whether a promise has settled. */
function tracked(run: Promise<unknown>): () => boolean {
  let done = false;
  void run.finally(() => (done = true)).catch(() => {});
  return () => done;
}

describe('http-client connector settings', () => {
  it('refuses a base URL that is not absolute http(s) or that carries credentials, without echoing it', () => {
    const yaml = (url: string) => `connectors:\n  api: {type: http-client, baseURL: "${url}"}\n`;
    expect(problemsOf(yaml('/relative'))).toEqual([
      'flows.yaml:2:8 connectors.api: baseURL must be an absolute http or https URL with a host, e.g. https://api.example.com/v1',
    ]);
    expect(problemsOf(yaml('ftp://files.example.com'))[0]).toMatch(/absolute http or https URL/);
    const withPassword = problemsOf(yaml('https://bob:hunter22@api.example.com'));
    expect(withPassword[0]).toMatch(/must not carry credentials/);
    expect(withPassword.join()).not.toContain('hunter22');
  });

  it('appends each path to the base URL and applies default headers unless the block set them', async () => {
    await start('headers: {Accept: application/json, X-Team: core}', `- rest:
    connector: api
    path: things/1
    headers: {x-team: '"payments"'}`);
    const result = await runtime!.run('call');
    expect(result.outcome).toBe('completed');
    expect(server.arrivals[0].url).toBe('/v1/things/1');
    expect(server.arrivals[0].headers.accept).toBe('application/json');
    expect(server.arrivals[0].headers['x-team']).toBe('payments');
  });
});

describe('retry on 429', () => {
  // The waits run on a clock the test moves: each is checked to the millisecond, without waiting.
  it('waits as long as Retry-After says in seconds, then succeeds', async () => {
    server.handle((_req, res) => (server.arrivals.length === 1 ? json(res, 429, { slow: 'down' }, { 'retry-after': '1' }) : json(res, 200, { ok: true })));
    const clock = new ManualClock();
    await start('retry: {maxAttempts: 3}', CALL, clock);
    const run = runtime!.run('call');
    const settled = tracked(run);
    await timerSet(clock, (ms) => ms === 1000);
    await clock.advance(999);
    expect(stillWaiting(clock, settled, 1)).toBe(true);
    expect(server.arrivals).toHaveLength(1);
    await clock.advance(1);
    const result = await run;
    expect(result.outcome).toBe('completed');
    expect(result.message.body).toEqual({ ok: true });
    expect(server.arrivals).toHaveLength(2);
  });

  it('caps a long Retry-After at maxBackoff', async () => {
    server.handle((_req, res) => (server.arrivals.length === 1 ? json(res, 429, {}, { 'retry-after': '60' }) : json(res, 200, { ok: true })));
    const clock = new ManualClock();
    await start('retry: {maxBackoff: 200ms}', CALL, clock);
    const run = runtime!.run('call');
    await timerSet(clock, (ms) => ms === 200);
    await clock.advance(200);
    expect((await run).outcome).toBe('completed');
  });

  it('honours Retry-After given as an HTTP date', async () => {
    const clock = new ManualClock();
    server.handle((_req, res) =>
      server.arrivals.length === 1 ? json(res, 429, {}, { 'retry-after': new Date(clock.now() + 2000).toUTCString() }) : json(res, 200, { ok: true }),
    );
    await start('retry: {maxBackoff: 5s}', CALL, clock);
    const run = runtime!.run('call');
    // HTTP dates have whole seconds, so the wait is between one and two seconds.
    await timerSet(clock, (ms) => ms > 1000 && ms <= 2000);
    await clock.advance(2000);
    expect((await run).outcome).toBe('completed');
  });

  it('makes maxAttempts attempts in total with exponential backoff, then fails with the status', async () => {
    server.handle((_req, res) => json(res, 429, { error: 'rate limited' }));
    await start('retry: {maxAttempts: 3, maxBackoff: 50ms}');
    const result = await runtime!.run('call');
    expect(result.outcome).toBe('failed');
    expect(result.error?.message).toBe('http-client api: GET /things answered 429; set failOnError: false to handle it in the flow');
    expect(result.message.vars.statusCode).toBe(429);
    expect(server.arrivals).toHaveLength(3);
  });

  it('retries 3 times in total by default and not at all when maxAttempts is 1', async () => {
    server.handle((_req, res) => json(res, 429, {}, { 'retry-after': '0' }));
    await start('');
    await runtime!.run('call');
    expect(server.arrivals).toHaveLength(3);
    await runtime!.stop();
    server.reset();
    await start('retry: {maxAttempts: 1}');
    await runtime!.run('call');
    expect(server.arrivals).toHaveLength(1);
  });

  it('does not retry other error statuses', async () => {
    server.handle((_req, res) => json(res, 503, {}, { 'retry-after': '0' }));
    await start('');
    expect((await runtime!.run('call')).outcome).toBe('failed');
    expect(server.arrivals).toHaveLength(1);
  });
});

describe('GET cache', () => {
  it('serves a repeated GET from memory without a request, per URL and headers', async () => {
    let n = 0;
    server.handle((_req, res) => json(res, 200, { n: ++n }));
    await start('cache: {enabled: true}', `- rest:
    connector: api
    path: /things
    query: {page: vars.page}
    headers: {Authorization: vars.auth}`);
    const get = async (page: string, auth = 'Bearer alice') => (await runtime!.run('call', null, { page, auth })).message.body;
    expect(await get('1')).toEqual({ n: 1 });
    expect(await get('1')).toEqual({ n: 1 });
    expect(await get('2')).toEqual({ n: 2 });
    // Another caller's credential never sees the first caller's response.
    expect(await get('1', 'Bearer bob')).toEqual({ n: 3 });
    expect(server.arrivals).toHaveLength(3);
  });

  it('expires entries after ttl, evicts beyond maxEntries, and never caches other methods or failures', async () => {
    let n = 0;
    server.handle((req, res) => json(res, req.url?.includes('bad') ? 404 : 200, { n: ++n }));
    await start('cache: {enabled: true, ttl: 150ms, maxEntries: 2}', `- rest-dynamic:
    connector: api
    method: vars.method
    path: vars.path
    failOnError: false`);
    const call = async (path: string, method = 'GET') => (await runtime!.run('call', null, { method, path })).message.body;
    await call('/a');
    await call('/a');
    expect(server.arrivals).toHaveLength(1);
    await call('/b');
    await call('/c'); // evicts /a
    await call('/a');
    expect(server.arrivals).toHaveLength(4);
    // The entry's 150 ms pass on the clock the cache reads; the HTTP on 127.0.0.1 stays real.
    vi.useFakeTimers({ toFake: ['Date'], now: Date.now() });
    try {
      vi.setSystemTime(Date.now() + 200);
      await call('/a');
    } finally {
      vi.useRealTimers();
    }
    expect(server.arrivals).toHaveLength(5);
    await call('/p', 'POST');
    await call('/p', 'POST');
    await call('/bad');
    await call('/bad');
    expect(server.arrivals).toHaveLength(9);
  });

  it('is off unless enabled', async () => {
    await start('');
    await runtime!.run('call');
    await runtime!.run('call');
    expect(server.arrivals).toHaveLength(2);
  });
});

describe('maxResponseBytes', () => {
  const sendBytes = (size: number, withLength: boolean) => server.handle((_req, res) => {
    res.writeHead(200, { 'content-type': 'application/octet-stream', ...(withLength ? { 'content-length': String(size) } : {}) });
    res.end(Buffer.alloc(size, 97));
  });

  it('fails a larger response with a message naming the limit', async () => {
    sendBytes(2000, true);
    await start('maxResponseBytes: 1024');
    const result = await runtime!.run('call');
    expect(result.outcome).toBe('failed');
    expect(result.error?.message).toBe(
      'http-client api: GET /v1/things: the response body is larger than maxResponseBytes (1024 bytes); raise maxResponseBytes on the connector if the response is expected',
    );
  });

  it('accepts a response of exactly the limit', async () => {
    sendBytes(1024, false);
    await start('maxResponseBytes: 1024');
    const result = await runtime!.run('call');
    expect(result.outcome).toBe('completed');
    expect((result.message.body as { rawData: Uint8Array }).rawData.byteLength).toBe(1024);
  });

  it('drains up to 4 KiB past the limit so the connection is reused, and drops it beyond', async () => {
    await start('maxResponseBytes: 1024');
    // undici may alternate between two connections for back-to-back requests; reuse means no more.
    for (const withLength of [true, false]) {
      const drained = server.sockets;
      for (let i = 0; i < 5; i++) {
        sendBytes(1024 + 4000, withLength);
        expect((await runtime!.run('call')).outcome).toBe('failed');
        sendBytes(10, withLength);
        expect((await runtime!.run('call')).outcome).toBe('completed');
      }
      expect(server.sockets - drained).toBeLessThanOrEqual(2);

      const dropped = server.sockets;
      for (let i = 0; i < 5; i++) {
        sendBytes(1024 + 256 * 1024, withLength);
        expect((await runtime!.run('call')).outcome).toBe('failed');
        sendBytes(10, withLength);
        expect((await runtime!.run('call')).outcome).toBe('completed');
      }
      expect(server.sockets - dropped).toBeGreaterThanOrEqual(5);
    }
  });
});

describe('connection pool', () => {
  it('reuses connections for sequential requests instead of opening one each', async () => {
    await start('');
    const before = server.sockets;
    for (let i = 0; i < 20; i++) expect((await runtime!.run('call')).outcome).toBe('completed');
    // undici's pool may hand a back-to-back request to a second connection while the first settles.
    expect(server.sockets - before).toBeLessThanOrEqual(2);
  });

  it('opens at most maxIdleConnsPerHost connections however many requests run at once', async () => {
    server.handle((_req, res) => void setTimeout(() => json(res, 200, { ok: true }), 20));
    await start('pool: {maxIdleConnsPerHost: 4}');
    const before = server.sockets;
    const results = await Promise.all(Array.from({ length: 24 }, () => runtime!.run('call')));
    expect(results.every((r) => r.outcome === 'completed')).toBe(true);
    expect(server.sockets - before).toBe(4);
  });

  it('uses a new connection per request when keep-alives are disabled', async () => {
    await start('pool: {disableKeepAlives: true}');
    const before = server.sockets;
    for (let i = 0; i < 5; i++) await runtime!.run('call');
    expect(server.sockets - before).toBe(5);
  });

  it('closes idle connections after idleConnTimeout', async () => {
    await start('pool: {idleConnTimeout: 100ms}');
    const before = server.sockets;
    await runtime!.run('call');
    // The client closes the idle connection itself, on undici's own timer: wait for the server to
    // see it, well before the 4 s an ignored setting (undici's default keep-alive) would take.
    const idleFrom = Date.now();
    await expect.poll(() => server.openSockets).toBe(0);
    expect(Date.now() - idleFrom).toBeLessThan(3000);
    await runtime!.run('call');
    expect(server.sockets - before).toBe(2);
  });
});

describe('timeout', () => {
  it('fails a request that takes longer than the timeout', async () => {
    server.handle(() => {}); // never answers: only the timeout ends the request
    const clock = new ManualClock();
    await start('timeout: 100ms', CALL, clock);
    const run = runtime!.run('call');
    const settled = tracked(run);
    await timerSet(clock, (ms) => ms === 100);
    await clock.advance(99);
    expect(stillWaiting(clock, settled, 1)).toBe(true);
    await clock.advance(1);
    const result = await run;
    expect(result.outcome).toBe('failed');
    expect(result.error?.message).toBe('http-client api: GET /v1/things timed out after 100ms');
  });

  it('bounds each attempt, not the waits between retries', async () => {
    server.handle((_req, res) => (server.arrivals.length === 1 ? json(res, 429, {}, { 'retry-after': '1' }) : json(res, 200, { ok: true })));
    const clock = new ManualClock();
    await start('timeout: 500ms', CALL, clock);
    const run = runtime!.run('call');
    await timerSet(clock, (ms) => ms === 1000); // the retry wait, with no attempt's timeout running
    await clock.advance(1000);
    expect((await run).outcome).toBe('completed');
  });
});

describe('failures', () => {
  it('names the connector, method and path but never the query string', async () => {
    await start('', `- rest: {connector: api, path: /things, query: {key: '"s3cr3t-value"'}}`);
    await server.close();
    const result = await runtime!.run('call');
    expect(result.outcome).toBe('failed');
    expect(result.error?.message).toMatch(/^http-client api: GET \/v1\/things failed: .*ECONNREFUSED/);
    expect(result.error?.message).not.toContain('s3cr3t');
    server = await startRecordingServer();
  });
});
