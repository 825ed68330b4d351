import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { startPlatformServer, type PlatformServer } from '../../platform/index.ts';
import { createLogger, type LogRecord } from '../core/logger.ts';
import { selectPlatformServices } from './select-services.ts';
import type { PlatformServices } from './platform-services.ts';
import { until } from './testing/runtime-on-platform.ts';
import { apiEnv } from './testing/runtime-on-platform.ts';

const dirs: string[] = [];
const closers: Array<() => Promise<unknown>> = [];
afterEach(async () => {
  for (const close of closers.splice(0).reverse()) await close();
});
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

function tempDir(): string {
  const d = mkdtempSync(join(tmpdir(), 'flow-services-select-'));
  dirs.push(d);
  return d;
}

function capture(): { log: ReturnType<typeof createLogger>; records: LogRecord[] } {
  const records: LogRecord[] = [];
  return { log: createLogger({ level: 'debug', sinks: [(r) => records.push(r)] }), records };
}

async function platformWith(options: Parameters<typeof startPlatformServer>[0] extends infer O ? Partial<O> : never = {}): Promise<PlatformServer> {
  const server = await startPlatformServer({ dataDir: tempDir(), ...options });
  closers.push(() => server.close());
  return server;
}

async function select(env: Record<string, string>, log = capture().log): Promise<PlatformServices> {
  const services = await selectPlatformServices(env, log);
  closers.push(() => services.close());
  return services;
}

/** A stand-in platform for what the real one cannot show (what headers arrive, another specVersion). */
async function fakePlatform(answer: (path: string, headers: IncomingHttpHeaders) => { status: number; body?: unknown }): Promise<string> {
  const server: Server = createServer((req, res) => {
    req.resume();
    const a = answer(req.url ?? '', req.headers);
    res.writeHead(a.status, { 'content-type': 'application/json' }).end(a.body === undefined ? '' : JSON.stringify(a.body));
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  closers.push(() => new Promise((r) => server.close(r)));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

describe('selecting the services module', () => {
  it('runs without a platform when RUNTIME_SERVICES_MODULE is unset, and refuses an unknown module', async () => {
    expect((await select({})).implementation).toBe('none');
    await expect(selectPlatformServices({ RUNTIME_SERVICES_MODULE: 'grpc' }, capture().log)).rejects.toThrow(/"grpc" is not a services module/);
    await expect(selectPlatformServices({ RUNTIME_SERVICES_MODULE: 'api' }, capture().log)).rejects.toThrow(/needs FLOW_PLATFORM_API_URL/);
  });

  it('logs the implementation and each capability’s state once at startup', async () => {
    const platform = await platformWith({ features: { topics: false, agentMemory: { supported: false, unsupported: 'error' } } });
    const { log, records } = capture();
    const services = await select(apiEnv(platform), log);
    expect(services.implementation).toMatch(/^api \(flow-studio-platform \d/);
    const startup = records.filter((r) => r.msg.startsWith('platform services:'));
    expect(startup).toHaveLength(1);
    expect(startup[0].capabilities).toMatchObject({
      kv: 'supported',
      leases: 'supported',
      topics: 'off (features.topics.supported is false; unsupported: noop)',
      agentMemory: 'off (features.agentMemory.supported is false; unsupported: error)',
    });
  });

  it('retries discovery with backoff until a platform that starts late answers', async () => {
    const probe = createServer();
    await new Promise<void>((r) => probe.listen(0, '127.0.0.1', r));
    const port = (probe.address() as AddressInfo).port;
    await new Promise((r) => probe.close(r));
    const { log, records } = capture();
    const pending = select({ ...apiEnv({ url: `http://127.0.0.1:${port}`, token: undefined }), FLOW_PLATFORM_API_DISCOVERY_BUDGET: '10s' }, log);
    // The platform starts once discovery has failed at least once, not after a guessed pause.
    await until(() => records.some((r) => r.msg === 'platform discovery failed; retrying'), 10_000, 'a failed discovery attempt');
    await platformWith({ port, token: false });
    const services = await pending;
    expect(services.capability('kv').usable).toBe(true);
  });

  it('gives up after the discovery budget, naming the address and the variable to raise', async () => {
    const started = Date.now();
    await expect(select({ ...apiEnv({ url: 'http://127.0.0.1:9', token: undefined }), FLOW_PLATFORM_API_DISCOVERY_BUDGET: '700ms' })).rejects.toThrow(
      /127\.0\.0\.1:9 did not answer discovery within 1 s .*FLOW_PLATFORM_API_DISCOVERY_BUDGET/,
    );
    expect(Date.now() - started).toBeGreaterThanOrEqual(650);
  });

  it('starts with every capability degraded when discovery answers 501', async () => {
    const everythingOff = Object.fromEntries(['kv', 'secrets', 'resources', 'leases', 'leaderElection', 'queues', 'topics', 'agentMemory', 'traces', 'logs'].map((n) => [n, false]));
    const platform = await platformWith({ features: everythingOff });
    const services = await select(apiEnv(platform));
    expect(services.capability('kv')).toMatchObject({ usable: false, policy: 'noop', reason: 'discovery answered 501: the platform implements nothing' });
    expect(await services.kv.get('user', 'a')).toBeUndefined();
    await expect(services.leases.acquire('job', 1000)).rejects.toThrow(/"leases" is off \(discovery answered 501.*unsupported: error\)/);
  });

  it('only warns when the platform speaks another specVersion', async () => {
    const url = await fakePlatform(() => ({ status: 200, body: { specVersion: '2.3', features: { kv: { supported: true }, future: { supported: true } } } }));
    const { log, records } = capture();
    const services = await select(apiEnv({ url, token: undefined }), log);
    expect(services.capability('kv').usable).toBe(true);
    expect(records.find((r) => r.level === 'warn' && /speaks delegation API 2\.3; this runtime speaks 1\.0/.test(r.msg))).toBeDefined();
  });

  it('sends the static headers of FLOW_PLATFORM_API_HEADERS and the bearer token on every call', async () => {
    const seen: IncomingHttpHeaders[] = [];
    const url = await fakePlatform((path, headers) => {
      seen.push(headers);
      return path.startsWith('/v1/discovery') ? { status: 200, body: { specVersion: '1.0', features: { kv: { supported: true } } } } : { status: 404 };
    });
    const services = await select({
      ...apiEnv({ url, token: 'tok-123' }),
      FLOW_PLATFORM_API_HEADERS: 'X-Api-Key=k%2F1, X-Tenant=blue',
    });
    await services.kv.get('user', 'k');
    expect(seen).toHaveLength(3); // discovery, the start's credentials check, the read
    for (const h of seen) expect(h).toMatchObject({ 'x-api-key': 'k/1', 'x-tenant': 'blue', authorization: 'Bearer tok-123' });
  });

  it('re-reads FLOW_PLATFORM_API_TOKEN_FILE when the token is rotated', async () => {
    const platform = await platformWith({ token: 'right-token' });
    const tokenFile = join(tempDir(), 'token');
    writeFileSync(tokenFile, 'right-token\n');
    const env = apiEnv({ url: platform.url, token: undefined });
    const services = await select({ ...env, FLOW_PLATFORM_API_TOKEN_FILE: tokenFile });
    expect(await services.kv.get('user', 'k')).toBeUndefined();
    // Picked up within a second of the change (the file is checked at most once a second).
    writeFileSync(tokenFile, 'stale-token\n');
    await until(() => services.kv.get('user', 'k').then(() => false, (err: Error) => /answered 401/.test(err.message)), 5_000, 'the stale token in use');
    // A 401 re-reads the file at once: the rotated token is used by the call that was refused.
    writeFileSync(tokenFile, 'right-token\n');
    expect(await services.kv.get('user', 'k')).toBeUndefined();
  });
});
