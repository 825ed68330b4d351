import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { startPlatformServer, type FeatureOverrides, type PlatformServer } from '../../platform/index.ts';
import { runtimeOn, until, type RuntimeOnPlatform } from './testing/runtime-on-platform.ts';
import { IN_PROCESS_MAX_BATCH } from './telemetry.ts';
import { samplingFromEnv } from './trace-sampling.ts';
import { Value } from '@sinclair/typebox/value';
import { TraceRecord } from '../../../shared/trace-record.ts';
import type { TraceRecord as EmittedRecord } from '../core/trace.ts';

const dirs: string[] = [];
const cleanups: Array<() => Promise<unknown>> = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

async function platformWith(features: FeatureOverrides = {}): Promise<PlatformServer> {
  const dataDir = mkdtempSync(join(tmpdir(), 'flow-trace-export-'));
  dirs.push(dataDir);
  const server = await startPlatformServer({ dataDir, features });
  cleanups.push(() => server.close());
  return server;
}

// The second step fails when the body says so; a secret the flow echoes must never reach a stored trace.
const orders = `env:
  API_KEY: {secret: true, default: 'sk-"quoted\\secret'}
flows:
  orders:
    steps:
      - set: {body: '{"ok": body.ok, "key": has(body.key) ? body.key : ''''}'}
      - set: {body: 'body.ok ? body : body.missing.field'}
      - set: {body: '{"ok": body.ok}'}
`;

async function runtimeFor(platform: PlatformServer, env: Record<string, string> = {}, telemetry = {}): Promise<RuntimeOnPlatform> {
  const r = await runtimeOn(platform, orders, { deploymentId: 'orders', instanceId: 'o-1', env, telemetry: { traceFlushIntervalMs: 20, ...telemetry } });
  cleanups.push(() => r.stop());
  return r;
}

const runsStored = async (p: PlatformServer) => (await p.traces.list({ limit: 100_000 })).filter((t) => (t.record as { kind: string }).kind === 'run');

describe('trace export', () => {
  it('stores every record of every run, sent in batches', async () => {
    const platform = await platformWith();
    const r = await runtimeFor(platform);
    for (let i = 0; i < 300; i++) await r.runtime.run('orders', { ok: true });
    await until(async () => (await runsStored(platform)).length === 300, 10_000, 'all 300 runs stored');
    // The writer thread's count of what it keeps arrives with its reply, a moment after its commit
    // is readable here: wait for it rather than race it.
    await until(() => platform.traces.kept.records === 300 * 4, 10_000, 'the writer counting 1,200 records kept');
    expect((await platform.traces.list({ limit: 100_000 })).length).toBe(300 * 4);
    await until(() => r.services.telemetry.stats().traces!.sent === 1200, 10_000, 'every export acknowledged');
    expect(r.services.telemetry.stats().traces!.dropped).toBe(0);
  });

  it('round-trips every record the hub emits through POST /v1/traces: each passes the TraceRecord schema and is stored field for field', async () => {
    const platform = await platformWith();
    const r = await runtimeFor(platform);
    const emitted: EmittedRecord[] = [];
    // Snapshots on: the message before and after each step travels too.
    const detach = r.runtime.traces.add({ snapshots: true, emit: (e) => emitted.push(e) });
    cleanups.push(async () => detach());
    await r.runtime.run('orders', { ok: true, n: [1, 2, 3] });
    await r.runtime.run('orders', { ok: false });
    await until(async () => (await runsStored(platform)).length === 2, 10_000, 'both runs stored');
    await until(async () => (await platform.traces.list({ limit: 100 })).length === emitted.length, 10_000, 'every record stored');
    const stored = (await platform.traces.list({ limit: 100 })).map((t) => t.record).reverse();
    expect(stored).toEqual(emitted);
    for (const record of stored) expect([...Value.Errors(TraceRecord, record)].map((e) => `${e.path} ${e.message}`)).toEqual([]);
    // Both kinds, a failure and the deployment's own fields made the trip.
    expect(emitted.some((e) => e.kind === 'step' && e.outcome === 'failed' && e.error && e.step === 'flows.orders.steps[1]' && e.input !== undefined)).toBe(true);
    expect(emitted.every((e) => e.deployment === 'orders' && e.instance === 'o-1' && e.traceId && e.spanId)).toBe(true);
  });

  it('masks a secret in a snapshot of the message, in its JSON-escaped spelling too', async () => {
    const platform = await platformWith();
    const r = await runtimeFor(platform);
    const detach = r.runtime.traces.add({ snapshots: true, emit: () => {} });
    cleanups.push(async () => detach());
    await r.runtime.run('orders', { ok: true, key: 'sk-"quoted\\secret' });
    await until(async () => (await runsStored(platform)).length === 1, 10_000, 'the run stored');
    const stored = (await platform.traces.list({ limit: 100 })).map((t) => t.record as { output?: { body?: { key?: string } } });
    expect(stored.some((t) => t.output?.body?.key === '[redacted]')).toBe(true);
    expect(JSON.stringify(stored)).not.toContain('quoted');
  });

  it('under overload drops and counts records beyond its bound instead of holding runs up', async () => {
    const platform = await platformWith();
    const r = await runtimeFor(platform, {}, { traceMaxQueue: 100, traceMaxBatch: 50, traceFlushIntervalMs: 60_000 });
    // 1,000 runs in one turn of the event loop: nothing can be exported meanwhile.
    const results = await Promise.all(Array.from({ length: 1000 }, () => r.runtime.run('orders', { ok: true })));
    expect(results.every((x) => x.outcome === 'completed')).toBe(true);
    const stats = r.services.telemetry.stats().traces!;
    expect(stats.dropped).toBe(4000 - 100);
    // Said once in the log, not once per record.
    expect(r.logs.filter((l) => l.msg.includes('dropping them rather than slowing requests'))).toHaveLength(1);
    await until(() => platform.traces.kept.records === 100, 10_000, 'the kept 100 stored');
  });

  it('with a sample ratio exports about that fraction of runs, and every failed run whole', async () => {
    const platform = await platformWith();
    const r = await runtimeFor(platform, { FLOW_TRACE_SAMPLE_RATIO: '0.25' });
    for (let i = 0; i < 400; i++) await r.runtime.run('orders', { ok: true });
    for (let i = 0; i < 20; i++) await r.runtime.run('orders', { ok: false });
    await r.services.telemetry.flush();
    const runs = (await runsStored(platform)).map((t) => t.record as { outcome: string; runId: string });
    const completed = runs.filter((x) => x.outcome === 'completed').length;
    expect(completed).toBeGreaterThan(60);
    expect(completed).toBeLessThan(140);
    // Failed runs are all kept, each with its two steps (the second one failed).
    const failed = runs.filter((x) => x.outcome === 'failed');
    expect(failed).toHaveLength(20);
    const steps = (await platform.traces.list({ limit: 100_000 })).map((t) => t.record as { kind: string; runId: string });
    for (const f of failed) expect(steps.filter((s) => s.kind === 'step' && s.runId === f.runId)).toHaveLength(2);
    expect(r.services.telemetry.stats().traces!.sampledOut).toBe(400 - completed);
  });

  it('hands traces and logs to a platform in the same process without HTTP, stored and masked as a POST would be', async () => {
    const platform = await platformWith();
    const handed: Array<{ kind: string; count: number; text: string }> = [];
    const inProcess = {
      ingest: (kind: 'traces' | 'logs', count: number, text: string) => {
        handed.push({ kind, count, text });
        return platform.ingestTelemetry(kind, count, text);
      },
    };
    const feed: unknown[] = [];
    const stopFeed = platform.events.subscribe((e) => {
      if (e.type === 'traces') feed.push(...e.records);
    });
    cleanups.push(async () => stopFeed());
    const r = await runtimeFor(platform, {}, { inProcess, logFlushIntervalMs: 20 });
    const detach = r.runtime.traces.add({ snapshots: true, emit: () => {} });
    cleanups.push(async () => detach());
    for (let i = 0; i < 50; i++) await r.runtime.run('orders', { ok: true, key: 'sk-"quoted\\secret' });
    r.services.telemetry.logSink({ time: new Date().toISOString(), level: 'info', msg: 'a line for the platform' });
    await r.services.telemetry.flush();
    expect(handed.filter((h) => h.kind === 'traces').reduce((n, h) => n + h.count, 0)).toBe(200);
    expect(handed.some((h) => h.kind === 'logs')).toBe(true);
    expect((await runsStored(platform)).length).toBe(50);
    expect(platform.traces.kept.records).toBe(200);
    // The live feed of the platform still sees every record, parsed from the text handed over.
    expect(feed).toHaveLength(200);
    const all = JSON.stringify(await platform.traces.list({ limit: 1000 }));
    expect(all).toContain('[redacted]');
    expect(all).not.toContain('quoted');
    expect((await platform.logs.list({ limit: 100 })).some((l) => (l.record as { msg?: string }).msg === 'a line for the platform')).toBe(true);
  });

  it('hands a burst to a platform in the same process in small batches, letting requests run between them', async () => {
    const platform = await platformWith({ traces: { maxBatch: 1000 } });
    let turns = 0;
    const handed: Array<{ count: number; turn: number }> = [];
    const inProcess = {
      ingest: (kind: 'traces' | 'logs', count: number, text: string) => {
        if (kind === 'traces') handed.push({ count, turn: turns });
        // Counts the event loop's turns: it moves on only if the export let the loop run.
        setImmediate(() => turns++);
        return platform.ingestTelemetry(kind, count, text);
      },
    };
    const r = await runtimeFor(platform, {}, { inProcess, traceFlushIntervalMs: 60_000 });
    await Promise.all(Array.from({ length: 100 }, () => r.runtime.run('orders', { ok: true })));
    await r.services.telemetry.flush();
    expect(handed.reduce((n, h) => n + h.count, 0)).toBe(400);
    expect(handed.length).toBeGreaterThanOrEqual(4);
    expect(Math.max(...handed.map((h) => h.count))).toBeLessThanOrEqual(IN_PROCESS_MAX_BATCH);
    for (let i = 1; i < handed.length; i++) expect(handed[i].turn).toBeGreaterThan(handed[i - 1].turn);
    expect(platform.traces.kept.records).toBe(400);
  });

  it('refuses a sample ratio outside 0..1 naming the variable', () => {
    expect(() => samplingFromEnv({ FLOW_TRACE_SAMPLE_RATIO: '25%' })).toThrow('FLOW_TRACE_SAMPLE_RATIO must be a number from 0 to 1');
    expect(() => samplingFromEnv({ FLOW_TRACE_KEEP_FAILED: 'yes' })).toThrow('FLOW_TRACE_KEEP_FAILED must be true or false');
    expect(samplingFromEnv({})).toEqual({ ratio: 1, keepFailed: true });
  });
});
