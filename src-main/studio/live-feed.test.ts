import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { FeedBatch, FeedEvent } from '../../shared/feed-events.ts';
import { TraceHub, type TraceRecord } from '../runtime/index.ts';
import { LiveFeed } from './live-feed.ts';
import { traceSource } from './runtime-feed.ts';

const log = (i: number): FeedEvent => ({ kind: 'log', at: i, log: { time: '', level: 'info', msg: `m${i}`, fields: {} } });
// The feed's flush timer and clock are faked, so batching is asserted on exact times, not on
// how busy the machine is.
const sleep = (ms: number) => vi.advanceTimersByTimeAsync(ms);

describe('the live feed', () => {
  beforeEach(() => {
    vi.useFakeTimers({ toFake: ['Date', 'setTimeout', 'clearTimeout', 'setInterval', 'clearInterval'] });
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('delivers events in batches no more often than every 50 ms', async () => {
    const feed = new LiveFeed({ flushMs: 50 });
    const batches: Array<{ at: number; batch: FeedBatch }> = [];
    feed.subscribe((batch) => batches.push({ at: Date.now(), batch }));
    const started = Date.now();
    for (let i = 0; i < 30; i++) {
      feed.push(log(i));
      await sleep(5);
    }
    await sleep(80);
    feed.close();
    expect(batches.reduce((n, b) => n + b.batch.events.length, 0)).toBe(30);
    expect(batches.length).toBeLessThanOrEqual(Math.ceil((Date.now() - started) / 50) + 1);
    for (let i = 1; i < batches.length; i++) expect(batches[i].at - batches[i - 1].at).toBeGreaterThanOrEqual(50);
  });

  it('keeps a bounded buffer and says how many events it dropped', async () => {
    const feed = new LiveFeed({ flushMs: 20, maxBuffered: 100 });
    const batches: FeedBatch[] = [];
    feed.subscribe((b) => batches.push(b));
    for (let i = 0; i < 250; i++) feed.push(log(i));
    await sleep(40);
    feed.close();
    expect(batches).toHaveLength(1);
    expect(batches[0].events).toHaveLength(100);
    expect(batches[0].dropped).toBe(150);
  });

  it('carries how many trace records the runtimes dropped since the previous batch', async () => {
    const feed = new LiveFeed({ flushMs: 10 });
    let exportDropped = 7;
    const stopCounting = feed.addDropCounter(() => exportDropped);
    const batches: FeedBatch[] = [];
    feed.subscribe((b) => batches.push(b));
    feed.push(log(1));
    await sleep(30);
    exportDropped = 12;
    feed.push(log(2));
    await sleep(30);
    stopCounting();
    exportDropped = 40;
    feed.push(log(3));
    await sleep(30);
    feed.close();
    // Drops before the counter was registered are not news; after it is removed nothing more is counted.
    expect(batches.map((b) => b.tracesDropped)).toEqual([undefined, 5, undefined]);
  });

  it('carries runs left untraced under load apart from trace records dropped', async () => {
    const feed = new LiveFeed({ flushMs: 10 });
    let exportDropped = 0;
    let shed = 3;
    feed.addDropCounter(() => exportDropped);
    feed.addDropCounter(() => shed, 'runsNotTraced');
    const batches: FeedBatch[] = [];
    feed.subscribe((b) => batches.push(b));
    feed.push(log(1));
    await sleep(20);
    shed = 903;
    exportDropped = 4;
    feed.push(log(2));
    await sleep(20);
    feed.close();
    expect(batches.map((b) => [b.tracesDropped, b.runsNotTraced])).toEqual([
      [undefined, undefined],
      [4, 900],
    ]);
  });

  it('brings a counter\'s news within half a second when no event comes to carry it', async () => {
    const feed = new LiveFeed({ flushMs: 10 });
    let shed = 0;
    feed.addDropCounter(() => shed, 'runsNotTraced');
    const batches: FeedBatch[] = [];
    const unsubscribe = feed.subscribe((b) => batches.push(b));
    await sleep(600);
    expect(batches).toEqual([]);
    shed = 250;
    await sleep(500);
    expect(batches).toEqual([{ events: [], dropped: 0, runsNotTraced: 250 }]);
    unsubscribe();
    shed = 300;
    await sleep(1000);
    expect(batches).toHaveLength(1);
    feed.close();
  });

  it('attaches sources only while someone listens, so nothing is traced or collected for nobody', async () => {
    const feed = new LiveFeed({ flushMs: 10 });
    const traces = new TraceHub();
    feed.addSource(traceSource('orders-api', traces));
    expect(traces.active).toBe(false);
    feed.push(log(1));

    const batches: FeedBatch[] = [];
    const stop = feed.subscribe((b) => batches.push(b));
    expect(traces.active).toBe(true);
    traces.emit({ kind: 'run', flow: 'price-order', correlationId: 'c1', runId: 'r1', startedAt: 1, durationMs: 2, outcome: 'completed' });
    await sleep(30);
    expect(batches.flatMap((b) => b.events)).toEqual([
      expect.objectContaining({ kind: 'trace', integration: 'orders-api', trace: expect.objectContaining({ flow: 'price-order', runId: 'r1' }) }),
    ]);

    stop();
    expect(traces.active).toBe(false);
    feed.close();
  });

  it("carries a step's trace record to the renderer as the runtime emitted it, less where it ran, its span ids and the message after it", async () => {
    const feed = new LiveFeed({ flushMs: 10 });
    const traces = new TraceHub();
    feed.addSource(traceSource('orders-api', traces));
    const batches: FeedBatch[] = [];
    const stop = feed.subscribe((b) => batches.push(b));
    const shown = { kind: 'step', flow: 'orders', correlationId: 'c1', runId: 'r1', step: 'flows.orders.steps[1]', block: 'set', name: 'price', startedAt: 1, durationMs: 2, outcome: 'failed', error: 'no price', input: { body: 1, vars: {} } } as const;
    traces.emit({ ...shown, output: { body: 2, vars: {} }, deployment: 'd1', instance: 'i1', traceId: 't'.repeat(32), spanId: 's'.repeat(16), parentSpanId: 'p'.repeat(16), sampled: true });
    await sleep(30);
    stop();
    feed.close();
    expect(batches.flatMap((b) => b.events)).toEqual([{ kind: 'trace', at: expect.any(Number), integration: 'orders-api', trace: shown }]);
  });

  it('sends the message a step or run saw on the newest record of each in a batch only, and never changes a batch already sent', async () => {
    const feed = new LiveFeed({ flushMs: 10_000 });
    const traces = new TraceHub();
    feed.addSource(traceSource('orders-api', traces));
    const batches: FeedBatch[] = [];
    const sent: string[] = [];
    const stop = feed.subscribe((b) => {
      batches.push(b);
      sent.push(JSON.stringify(rows(b)));
    });
    const rows = (b: FeedBatch): unknown[] => b.events.map((e) => (e.kind === 'trace' ? [e.trace.kind, e.trace.runId, e.trace.input ?? null] : e.kind));
    const record = (kind: 'step' | 'run', runId: string, step?: string): TraceRecord => ({ kind, flow: 'orders', correlationId: runId, runId, step, startedAt: 1, durationMs: 1, outcome: 'completed', input: { body: runId, vars: {} } });
    const flush = (): void => (feed as unknown as { flush(): void }).flush();
    for (const runId of ['r1', 'r2', 'r3']) {
      traces.emit(record('step', runId, 'flows.orders.steps[0]'));
      traces.emit(record('step', runId, 'flows.orders.steps[1]'));
      traces.emit(record('run', runId));
    }
    flush();
    traces.emit(record('step', 'r4', 'flows.orders.steps[0]'));
    flush();
    stop();
    feed.close();
    const msg = (runId: string): { body: string; vars: object } => ({ body: runId, vars: {} });
    expect(JSON.parse(sent[0])).toEqual([
      ['step', 'r1', null],
      ['step', 'r1', null],
      ['run', 'r1', null],
      ['step', 'r2', null],
      ['step', 'r2', null],
      ['run', 'r2', null],
      ['step', 'r3', msg('r3')],
      ['step', 'r3', msg('r3')],
      ['run', 'r3', msg('r3')],
    ]);
    expect(JSON.parse(sent[1])).toEqual([['step', 'r4', msg('r4')]]);
    // The next batch's record of steps[0] left the first batch's as it was sent.
    expect(JSON.stringify(rows(batches[0]))).toBe(sent[0]);
  });
});
