import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { startPlatformServer, type FeatureOverrides, type PlatformServer } from '../../platform/index.ts';
import { runtimeOn, until, type RuntimeOnPlatform } from './testing/runtime-on-platform.ts';

const dirs: string[] = [];
const cleanups: Array<() => Promise<unknown>> = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

async function platformWith(features: FeatureOverrides = {}): Promise<PlatformServer> {
  const dataDir = mkdtempSync(join(tmpdir(), 'flow-telemetry-'));
  dirs.push(dataDir);
  const server = await startPlatformServer({ dataDir, features });
  cleanups.push(() => server.close());
  return server;
}

const greeter = `env:
  API_KEY: {secret: true, default: "key-that-must-not-ship"}
flows:
  greet:
    steps:
      - log: {message: '"hello " + body.name'}
      - set: {body: '{"greeting": "hi " + body.name}'}
`;

async function runtimeFor(platform: PlatformServer, yaml = greeter, o: Parameters<typeof runtimeOn>[2] = {}): Promise<RuntimeOnPlatform> {
  const r = await runtimeOn(platform, yaml, { deploymentId: 'greetings', instanceId: 'g-1', ...o });
  cleanups.push(() => r.stop());
  return r;
}

describe('telemetry shipping', () => {
  it('ships every run’s trace records with the deployment and instance beside the event’s fields', async () => {
    const platform = await platformWith({ traces: { flushIntervalMillis: 50 } });
    const r = await runtimeFor(platform);
    await r.runtime.run('greet', { name: 'ada' });
    await until(async () => (await platform.traces.list()).length >= 3, 10_000, 'shipped traces');
    const records = (await platform.traces.list()).map((t) => t.record as Record<string, unknown>);
    expect(records.map((t) => `${t.kind} ${t.block ?? ''}`.trim()).sort()).toEqual(['run', 'step log', 'step set']);
    for (const t of records) expect(t).toMatchObject({ flow: 'greet', outcome: 'completed', deployment: 'greetings', instance: 'g-1' });
  });

  it('ships log records untouched with deployment and instance, and never a secret value', async () => {
    const platform = await platformWith();
    const r = await runtimeFor(platform, greeter, { telemetry: { logFlushIntervalMs: 50 } });
    await r.runtime.run('greet', { name: 'key-that-must-not-ship' });
    await until(async () => (await platform.logs.list()).some((l) => (l.record as { msg: string }).msg.startsWith('hello')), 10_000, 'the log line');
    const line = (await platform.logs.list()).find((l) => (l.record as { msg: string }).msg.startsWith('hello'))!.record;
    expect(line).toMatchObject({ level: 'info', msg: 'hello [redacted]', flow: 'greet', deployment: 'greetings', instance: 'g-1' });
    expect(JSON.stringify(await platform.logs.list())).not.toContain('key-that-must-not-ship');
  });

  it('records no traces at all when the platform takes none', async () => {
    const platform = await platformWith({ traces: false });
    const r = await runtimeFor(platform);
    expect(r.runtime.traces.active).toBe(false);
    expect((await r.runtime.run('greet', { name: 'x' })).outcome).toBe('completed');
  });

  it('keeps a burst of 10,000 log lines with the platform stopped within its bound, without holding flows up', async () => {
    const platform = await platformWith();
    const r = await runtimeFor(platform, greeter, { telemetry: { logMaxQueue: 500, logFlushIntervalMs: 50 } });
    await r.runtime.run('greet', { name: 'before' });
    await until(() => (r.services.telemetry.stats().logs?.sent ?? 0) > 0, 10_000, 'shipping to work');
    await platform.close();

    const heapBefore = process.memoryUsage().heapUsed;
    const started = performance.now();
    let maxQueued = 0;
    for (let i = 0; i < 10_000; i++) {
      const result = await r.runtime.run('greet', { name: `n${i}` });
      if (result.outcome !== 'completed') throw new Error(`run ${i} ${result.outcome}`);
      if (i % 100 === 0) {
        maxQueued = Math.max(maxQueued, r.services.telemetry.stats().logs!.queued);
        // Let the shipper try (and fail) to send meanwhile, as it would between real requests.
        await new Promise((resolve) => setImmediate(resolve));
      }
    }
    const elapsed = performance.now() - started;
    const stats = r.services.telemetry.stats().logs!;
    expect(maxQueued).toBeLessThanOrEqual(500);
    expect(stats.queued).toBeLessThanOrEqual(500);
    // Every line beyond what is queued now was dropped, none kept elsewhere.
    expect(stats.dropped).toBeGreaterThanOrEqual(10_000 - 500);
    // Flows never waited on the platform: 10,000 runs take well under a second each way.
    expect(elapsed).toBeLessThan(10_000);
    const grownMb = (process.memoryUsage().heapUsed - heapBefore) / 1024 / 1024;
    expect(grownMb).toBeLessThan(64);
  }, 30_000);
});
