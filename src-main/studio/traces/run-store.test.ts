import { describe, expect, it } from 'vitest';
import { type TraceRecord } from '../../runtime/index.ts';
import { RunStore } from './run-store.ts';

const step = (runId: string, path: string, extra: Partial<TraceRecord> = {}): TraceRecord => ({
  kind: 'step',
  flow: 'orders',
  correlationId: `c-${runId}`,
  runId,
  step: path,
  block: 'set',
  startedAt: 1_000,
  durationMs: 0.5,
  outcome: 'completed',
  ...extra,
});
const run = (runId: string, extra: Partial<TraceRecord> = {}): TraceRecord => ({
  kind: 'run',
  flow: 'orders',
  correlationId: `c-${runId}`,
  runId,
  startedAt: 1_000,
  durationMs: 2,
  outcome: 'completed',
  ...extra,
});

describe('the run store', () => {
  it('assembles a run from its step events when the run event arrives', () => {
    const store = new RunStore();
    store.record('shop', step('r1', 'flows.orders.steps[0]', { input: { body: { a: 1 }, vars: {} }, output: { body: { a: 2 }, vars: {} } }));
    store.record('shop', run('r1', { input: { body: { customer: 'ana' }, vars: {} } }));
    const found = store.detail('r1')!;
    expect(found.summary).toMatchObject({ runId: 'r1', integration: 'shop', flow: 'orders', steps: 1, outcome: 'completed' });
    expect(found.detail!.steps[0].output).toEqual({ body: { a: 2 }, vars: {} });
    expect(found.detail!.snapshots).toBe(true);
  });

  it('forgets the steps of the oldest unfinished run once 10,000 runs are unfinished, and keeps the rest', () => {
    const store = new RunStore();
    for (let i = 0; i <= 10_000; i++) store.record('shop', step(`open-${i}`, 'flows.orders.steps[0]'));
    store.record('shop', run('open-0'));
    store.record('shop', run('open-1'));
    store.record('shop', run('open-10000'));
    expect(store.summary('open-0')?.steps).toBe(0);
    expect(store.summary('open-1')?.steps).toBe(1);
    expect(store.summary('open-10000')?.steps).toBe(1);
  });

  it('says how many runs each runtime left untraced under load, across reloads, until the runs are cleared', () => {
    const store = new RunStore();
    let shopShed = 40;
    let billingShed = 0;
    const stopShop = store.countUntraced('shop', () => shopShed);
    store.countUntraced('billing', () => billingShed);
    shopShed += 100;
    billingShed += 7;
    const page = (integration?: string) => store.query({ integration, offset: 0, limit: 1 }).notTraced;
    // Counted from when the runtime was attached: the 40 it had shed before are not the studio's.
    expect([page(), page('shop'), page('billing')]).toEqual([107, 100, 7]);
    // A reload stops the old runtime's count; what it counted stays, and the new one adds to it.
    shopShed += 5;
    stopShop();
    shopShed += 1_000;
    let reloadedShed = 0;
    store.countUntraced('shop', () => reloadedShed);
    reloadedShed += 3;
    expect([page(), page('shop')]).toEqual([115, 108]);
    store.clear();
    expect(page()).toBe(0);
    reloadedShed += 2;
    billingShed += 1;
    expect([page(), page('shop'), page('billing')]).toEqual([3, 2, 1]);
  });

  it('links the runs of one W3C trace, across flows and integrations, and finds them by trace id', () => {
    const store = new RunStore();
    const trace = '4bf92f3577b34da6a3ce929d0e0e4736';
    store.record('shop', run('r1', { traceId: trace, startedAt: 1_000 }));
    store.record('shop', run('r2', { flow: 'ship', traceId: trace, startedAt: 1_005 }));
    store.record('billing', run('r3', { flow: 'invoice', traceId: trace, startedAt: 1_003 }));
    store.record('shop', run('r4', { traceId: 'aaaabbbbccccddddeeeeffff00001111' }));
    expect(store.summary('r1')?.traceId).toBe(trace);
    expect(store.sameTrace('r1').map((r) => r.runId)).toEqual(['r3', 'r2']);
    expect(store.sameTrace('r4')).toEqual([]);
    expect(store.query({ text: trace, offset: 0, limit: 10 }).rows.map((r) => r.runId).sort()).toEqual(['r1', 'r2', 'r3']);
  });

  it('keeps at most maxRuns (plus a tenth between evictions), dropping the oldest', () => {
    const store = new RunStore({ maxRuns: 1_000 });
    for (let i = 0; i < 2_500; i++) store.record('shop', run(`r${i}`));
    expect(store.size).toBeLessThanOrEqual(1_100);
    expect(store.summary('r0')).toBeUndefined();
    expect(store.summary('r2499')).toBeDefined();
    expect(store.query({ offset: 0, limit: 1 }).rows[0].runId).toBe('r2499');
  });

  it('keeps steps and messages only for the newest runs, within a byte budget', () => {
    const store = new RunStore({ maxDetailedRuns: 10, maxDetailBytes: 1_000_000 });
    // A run is held as its JSON text: about 200 kB each, so at most five fit in 1 MB.
    const big = 'x'.repeat(200_000);
    for (let i = 0; i < 30; i++) {
      store.record('shop', step(`r${i}`, 'flows.orders.steps[0]', { input: { body: big, vars: {} } }));
      store.record('shop', run(`r${i}`));
    }
    const kept = Array.from({ length: 30 }, (_, i) => store.detail(`r${i}`)!.detail !== undefined);
    expect(kept.filter(Boolean).length).toBeLessThanOrEqual(5);
    expect(kept.at(-1)).toBe(true);
    expect(store.detail('r0')!.summary.runId).toBe('r0');
  });

  it('filters by flow, outcome, status class and text in the request body, newest first', () => {
    const store = new RunStore();
    store.addSummary({ runId: 'a', integration: 'i', flow: 'orders', correlationId: 'c1', outcome: 'completed', status: 200, startedAt: 1, durationMs: 1, steps: 1 }, '{"customer":"ana"}');
    store.addSummary({ runId: 'b', integration: 'i', flow: 'orders', correlationId: 'c2', outcome: 'failed', status: 503, startedAt: 2, durationMs: 1, steps: 1, error: 'upstream down' }, '{"customer":"bo"}');
    store.addSummary({ runId: 'c', integration: 'i', flow: 'billing', correlationId: 'c3', outcome: 'completed', status: 404, startedAt: 3, durationMs: 1, steps: 1 }, '{"customer":"ana"}');
    const ids = (q: Partial<Parameters<RunStore['query']>[0]>) => store.query({ offset: 0, limit: 10, ...q }).rows.map((r) => r.runId);
    expect(ids({})).toEqual(['c', 'b', 'a']);
    expect(ids({ text: 'ANA' })).toEqual(['c', 'a']);
    expect(ids({ flow: 'orders', text: 'ana' })).toEqual(['a']);
    expect(ids({ status: '5xx' })).toEqual(['b']);
    expect(ids({ status: '404' })).toEqual(['c']);
    // Several, as the Status box's placeholder ('200, 4xx') shows them, with commas or spaces.
    expect(ids({ status: '200, 4xx' })).toEqual(['c', 'a']);
    expect(ids({ status: '5XX 404' })).toEqual(['c', 'b']);
    expect(ids({ outcome: 'failed', text: 'upstream' })).toEqual(['b']);
    expect(store.query({ offset: 0, limit: 10 }).flows).toEqual(['billing', 'orders']);
  });

  it('finds text in any one field, ignoring case, taking the query literally, and in steps whose detail was dropped', () => {
    const store = new RunStore({ maxDetailedRuns: 1 });
    store.record('shop', step('old', 'flows.orders.steps[0]', { name: 'Charge Card', error: 'card (declined)' }));
    store.record('shop', run('old', { outcome: 'failed', error: 'card (declined)' }));
    store.record('shop', step('new', 'flows.orders.steps[0]', { name: 'Reserve stock', input: { body: { sku: 'A.B*1' }, vars: {} } }));
    store.record('shop', run('new', { input: { body: { sku: 'A.B*1' }, vars: {} } }));
    expect(store.detail('old')!.detail).toBeUndefined();
    const ids = (text: string) => store.query({ offset: 0, limit: 10, text }).rows.map((r) => r.runId);
    expect(ids('charge card')).toEqual(['old']);
    expect(ids('RESERVE')).toEqual(['new']);
    expect(ids('(Declined)')).toEqual(['old']);
    expect(ids('a.b*1')).toEqual(['new']);
    expect(ids('axb*1')).toEqual([]);
    expect(ids('  set ')).toEqual(['new', 'old']);
    // Never across two fields: the flow "orders" and the outcome "completed" do not make one text.
    expect(ids('orders\ncompleted')).toEqual([]);
    expect(ids('orderscompleted')).toEqual([]);
  });

  it('filters by where runs came from: flow tests, re-runs from a step, or neither', () => {
    const store = new RunStore();
    for (const id of ['live', 'tested', 'forked']) store.addSummary({ runId: id, integration: 'i', flow: 'orders', correlationId: id, outcome: 'completed', startedAt: 1, durationMs: 1, steps: 1 }, '');
    store.markRun('tested', { test: 'prices an order' });
    store.markRun('forked', { forkedFrom: 'live', forkedAt: 'flows.orders.steps[1]' });
    const ids = (origin: 'live' | 'test' | 'rerun') => store.query({ offset: 0, limit: 10, origin }).rows.map((r) => r.runId);
    expect(ids('test')).toEqual(['tested']);
    expect(ids('rerun')).toEqual(['forked']);
    expect(ids('live')).toEqual(['live']);
    expect(store.query({ offset: 0, limit: 10 }).total).toBe(3);
  });

  it('answers a text filter over 100,000 runs within 100 ms, building nothing per run', () => {
    const store = new RunStore();
    for (let i = 0; i < 100_000; i++) {
      store.addSummary({ runId: `s${i}`, integration: 'i', flow: `f${i % 5}`, correlationId: `c${i}`, outcome: 'completed', status: 200, startedAt: i, durationMs: 1, steps: 3 }, `{"customer":"name-${i}"}`);
    }
    // The best of five distinct queries: a busy machine can stall any one of them, but not all.
    let best = Infinity;
    for (let k = 0; k < 5; k++) {
      const t0 = performance.now();
      const page = store.query({ text: `name-9999${k}`, offset: 0, limit: 100 });
      best = Math.min(best, performance.now() - t0);
      expect(page.total).toBe(1);
    }
    expect(best).toBeLessThan(100);
  });

  it('links a captured request to its run, even when the run ends after the request was recorded', () => {
    const store = new RunStore();
    store.record('shop', run('r1'));
    expect(store.linkRequest('c-r1', 'orders', { captureId: 7, status: 201, route: '/orders', method: 'POST', startedAt: 999 })).toBe('r1');
    expect(store.summary('r1')).toMatchObject({ captureId: 7, status: 201, route: '/orders', method: 'POST' });
    expect(store.query({ status: '201', offset: 0, limit: 5 }).total).toBe(1);

    expect(store.linkRequest('c-r2', 'orders', { captureId: 8, status: 200, method: 'GET', startedAt: 1_000 })).toBeUndefined();
    store.record('shop', run('r2'));
    expect(store.runIdForCapture(8)).toBe('r2');
  });
});
