import { createHash, randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { ManualClock, systemClock, type Clock, type ClockTimer } from '../../../shared/clock.ts';
import { PlatformEventFeed } from '../events.ts';
import { startPlatformServer, type PlatformServer, type PlatformServerOptions } from '../server.ts';

/**
 * The store the platform suites run on, from PLATFORM_TEST_STORE: `sqlite` (the default),
 * `postgres` (one server on a fresh database of the cluster at PLATFORM_TEST_POSTGRES_URL), or
 * `postgres-replicas` (two servers sharing that database, requests alternating between them).
 * vitest.config.ts runs the contract, concurrency, property and crash suites once per store.
 */
export type TestStore = 'sqlite' | 'postgres' | 'postgres-replicas';

export function testStore(): TestStore {
  const store = process.env.PLATFORM_TEST_STORE ?? 'sqlite';
  if (store !== 'sqlite' && store !== 'postgres' && store !== 'postgres-replicas') {
    throw new Error(`PLATFORM_TEST_STORE must be sqlite, postgres or postgres-replicas, got "${store}"`);
  }
  return store;
}

/**
 * A database of the test cluster for one test platform: fresh per data directory (so a restart
 * with the same `dataDir` finds its data again). Needs PLATFORM_TEST_POSTGRES_URL.
 */
export async function testDatabaseUrl(dataDir: string): Promise<string> {
  const admin = process.env.PLATFORM_TEST_POSTGRES_URL;
  if (!admin) throw new Error(`PLATFORM_TEST_STORE=${testStore()} needs PLATFORM_TEST_POSTGRES_URL (bash .ci/postgres.sh with-server … sets it)`);
  const name = `flow_test_${createHash('sha256').update(dataDir).digest('hex').slice(0, 16)}`;
  const client = new pg.Client({ connectionString: admin });
  await client.connect();
  try {
    const exists = await client.query('SELECT 1 FROM pg_database WHERE datname = $1', [name]);
    if (exists.rowCount === 0) await client.query(`CREATE DATABASE ${name}`);
  } finally {
    await client.end();
  }
  const url = new URL(admin);
  url.pathname = `/${name}`;
  return url.toString();
}

/** An answer from the platform, read once. */
export interface Answer {
  status: number;
  headers: Headers;
  bytes: Buffer;
  text: string;
  /** The parsed JSON body (undefined when empty). */
  json: unknown;
  /** `error.code` and `error.message` of an error body. */
  code: string | undefined;
  message: string | undefined;
  ms: number;
}

export interface CallOptions {
  json?: unknown;
  body?: Buffer | string;
  headers?: Record<string, string>;
}

export type Call = (method: string, path: string, options?: CallOptions) => Promise<Answer>;

export interface TestPlatform {
  server: PlatformServer;
  url: string;
  dataDir: string;
  /** Calls the server over real HTTP with its bearer token. */
  call: Call;
  /** The server's clock when started with `manualClock` on SQLite: a test moves it instead of sleeping. */
  clock: ManualClock | undefined;
  /**
   * Lets `ms` pass for TTLs, ack deadlines and nack delays. On SQLite with `manualClock` that
   * moves the server's clock (no waiting); on PostgreSQL the database's clock decides them by
   * design, so there it waits in real time.
   */
  elapse(ms: number): Promise<void>;
  /**
   * Resolves once the server set a new timer (a long poll parking, a request waiting for its
   * reply) after this call: on a ManualClock, or on PostgreSQL the system clock watched by
   * `WatchedClock`. Call it before sending the request that parks.
   */
  nextTimer(): Promise<void>;
  close(): Promise<void>;
}

export interface TestPlatformOptions extends Partial<PlatformServerOptions> {
  /** Run the SQLite server on a ManualClock (see `elapse`); ignored on PostgreSQL. */
  manualClock?: boolean;
}

const realSleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * The system clock, telling a test when the code on it sets a timer that keeps the process
 * alive: a long poll parking, a request waiting for its reply. Timers set `unref` (the server's
 * periodic sweep) are not told. For servers whose deadlines run in real time (PostgreSQL): the
 * test waits for the moment a request parks instead of sleeping until it probably has.
 */
export class WatchedClock implements Clock {
  private readonly listeners = new Set<() => void>();

  now(): number {
    return systemClock.now();
  }

  setTimeout(fn: () => void, ms: number, options?: { unref?: boolean }): ClockTimer {
    const timer = systemClock.setTimeout(fn, ms, options);
    if (!options?.unref) for (const listener of [...this.listeners]) listener();
    return timer;
  }

  clearTimeout(timer: ClockTimer | undefined): void {
    systemClock.clearTimeout(timer);
  }

  /** Resolves once a timer is set after this call. */
  nextTimer(): Promise<void> {
    return new Promise((resolve) => {
      const listener = (): void => {
        this.listeners.delete(listener);
        resolve();
      };
      this.listeners.add(listener);
    });
  }
}

function timerSet(clock: ManualClock): Promise<void> {
  const before = clock.pending;
  return new Promise((resolve) => {
    const stop = clock.onChange(() => {
      if (clock.pending <= before) return;
      stop();
      resolve();
    });
  });
}

/**
 * Starts a platform server on 127.0.0.1 in a fresh temporary data directory, on the store
 * PLATFORM_TEST_STORE names. With `postgres-replicas` it starts two servers on one database:
 * `call` alternates between them and `server.events` carries the events of both.
 */
export async function startTestPlatform({ manualClock, ...options }: TestPlatformOptions = {}): Promise<TestPlatform> {
  const dataDir = options.dataDir ?? mkdtempSync(join(tmpdir(), 'flow-platform-test-'));
  const store = testStore();
  if (store === 'sqlite') {
    const clock = manualClock ? new ManualClock() : undefined;
    const watched = !clock && !options.clock ? new WatchedClock() : undefined;
    const server = await startPlatformServer({ ...options, dataDir, ...(clock ? { clock } : watched ? { clock: watched } : {}) });
    return {
      server,
      url: server.url,
      dataDir,
      call: httpCaller(server.url, server.token),
      clock,
      elapse: (ms) => (clock ? clock.advance(ms) : realSleep(ms)),
      nextTimer: () => (clock ? timerSet(clock) : watched ? watched.nextTimer() : realSleep(200)),
      async close() {
        await server.close();
        if (!options.dataDir) rmSync(dataDir, { recursive: true, force: true });
      },
    };
  }
  const storeUrl = await testDatabaseUrl(dataDir);
  const token = options.token ?? randomBytes(24).toString('base64url');
  const replicas: PlatformServer[] = [];
  const watched = new WatchedClock();
  try {
    for (let i = 0; i < (store === 'postgres-replicas' ? 2 : 1); i++) replicas.push(await startPlatformServer({ clock: watched, ...options, token, dataDir, store: storeUrl }));
  } catch (err) {
    await Promise.all(replicas.map((r) => r.close()));
    throw err;
  }
  let server = replicas[0];
  if (replicas.length > 1) {
    const events = new PlatformEventFeed();
    for (const r of replicas) r.events.subscribe((e) => events.emit(e));
    server = Object.create(replicas[0], { events: { value: events } }) as PlatformServer;
  }
  const callers = replicas.map((r) => httpCaller(r.url, r.token));
  let next = 0;
  return {
    server,
    url: server.url,
    dataDir,
    call: (method, path, callOptions) => callers[next++ % callers.length](method, path, callOptions),
    clock: undefined,
    elapse: realSleep,
    nextTimer: () => (options.clock ? realSleep(200) : watched.nextTimer()),
    async close() {
      await Promise.all(replicas.map((r) => r.close()));
      if (!options.dataDir) {
        rmSync(dataDir, { recursive: true, force: true });
        await dropTestDatabase(storeUrl);
      }
    },
  };
}

async function dropTestDatabase(storeUrl: string): Promise<void> {
  const client = new pg.Client({ connectionString: process.env.PLATFORM_TEST_POSTGRES_URL });
  await client.connect();
  try {
    await client.query(`DROP DATABASE IF EXISTS ${new URL(storeUrl).pathname.slice(1)} WITH (FORCE)`);
  } finally {
    await client.end();
  }
}

export function httpCaller(url: string, token: string | undefined): Call {
  return async (method, path, options = {}) => {
    const headers: Record<string, string> = { ...(token ? { authorization: `Bearer ${token}` } : {}), ...options.headers };
    let body: Buffer | string | undefined = options.body;
    if (options.json !== undefined) {
      body = JSON.stringify(options.json);
      headers['content-type'] = 'application/json';
    }
    const started = performance.now();
    const res = await fetch(url + path, { method, headers, body: typeof body === 'string' || body === undefined ? body : new Uint8Array(body) });
    const bytes = Buffer.from(await res.arrayBuffer());
    const ms = performance.now() - started;
    const text = bytes.toString('utf8');
    let json: unknown;
    if ((res.headers.get('content-type') ?? '').startsWith('application/json') && text) json = JSON.parse(text);
    const error = (json as { error?: { code?: string; message?: string } } | undefined)?.error;
    return { status: res.status, headers: res.headers, bytes, text, json, code: error?.code, message: error?.message, ms };
  };
}

/** Percent-encodes a path segment, e.g. a subject with a slash. */
export const seg = encodeURIComponent;
