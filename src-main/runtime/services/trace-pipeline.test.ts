import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { silentLogger } from '../core/logger.ts';
import { TraceAdmission } from '../core/trace-admission.ts';
import { TraceHub, type TraceRecord } from '../core/trace.ts';
import type { RecordExporter } from './telemetry-pipeline.ts';
import { TracePipeline } from './trace-pipeline.ts';
import { EVERY_RUN } from './trace-sampling.ts';

const closing: TracePipeline[] = [];
// The pipeline's timers on a clock the test moves.
beforeEach(() => void vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'setInterval', 'clearInterval'] }));
afterEach(async () => {
  vi.useRealTimers();
  for (const p of closing.splice(0)) await p.close();
});

const run = (runId: string): TraceRecord => ({ kind: 'run', flow: 'orders', correlationId: runId, runId, startedAt: 0, durationMs: 0.1, outcome: 'completed' });

/** A hub whose request thread is as busy as the test says, on a clock the test moves. */
function hubWith(initialBusy: number, exporterWork?: RecordExporter<TraceRecord>['export']): { hub: TraceHub; exported: string[][]; load(busy: number): void } {
  let now = 0;
  let busy = initialBusy;
  const admission = new TraceAdmission({ meter: () => busy, now: () => now, windowMs: 25, saturatedRate: Infinity });
  // One call after a window's end reads its load, as the first request of the next window does.
  const load = (next: number): void => {
    busy = next;
    now += 30;
    admission.admit();
  };
  load(initialBusy);
  const hub = new TraceHub(admission);
  const exported: string[][] = [];
  const exporter: RecordExporter<TraceRecord> = {
    export: (batch, redactor, charge) => (exported.push(batch.map((e) => e.runId)), exporterWork?.(batch, redactor, charge) ?? true),
  };
  const p = new TracePipeline(exporter, { maxBatch: 512, maxQueue: 10_000, flushIntervalMs: 60_000, maxWaitMs: 16, waitOnlySaturated: true, sampling: EVERY_RUN }, silentLogger);
  p.attach(hub);
  closing.push(p);
  return { hub, exported, load };
}

describe('a trace pipeline that exports over HTTP', () => {
  it('while the request thread is saturated, a record waits at most maxWaitMs for the rest of its batch', () => {
    const { hub, exported } = hubWith(1);
    expect(hub.admission.saturated).toBe(true);
    hub.emit(run('r1'));
    vi.advanceTimersByTime(8);
    hub.emit(run('r2'));
    vi.advanceTimersByTime(7);
    expect(exported).toEqual([]);
    vi.advanceTimersByTime(1);
    expect(exported).toEqual([['r1', 'r2']]);
  });

  it('with time to spare, a partial batch waits for the interval: each batch is a request to the platform', () => {
    const { hub, exported } = hubWith(0.2);
    expect(hub.admission.saturated).toBe(false);
    hub.emit(run('r1'));
    vi.advanceTimersByTime(59_999);
    expect(exported).toEqual([]);
    vi.advanceTimersByTime(1);
    expect(exported).toEqual([['r1']]);
  });

  it('a record queued with time to spare waits no longer than maxWaitMs once the thread saturates', () => {
    const { hub, exported, load } = hubWith(0.2);
    hub.emit(run('r1'));
    vi.advanceTimersByTime(500);
    load(1);
    hub.emit(run('r2'));
    vi.advanceTimersByTime(16);
    expect(exported).toEqual([['r1', 'r2']]);
  });

  it("charges tracing's work on this thread to the hub's admission: the sinks', the export call's, and what the exporter reports from a later turn", () => {
    const spin = (ms: number): void => {
      const until = performance.now() + ms;
      while (performance.now() < until) {
        // Tracing work, as far as the clock can tell.
      }
    };
    const { hub, exported } = hubWith(1, (_batch, _redactor, charge) => {
      spin(3);
      // An exporter that stores the batch in a later turn says how long that took.
      charge?.(5);
      return true;
    });
    hub.add({ emit: () => spin(2) });
    hub.emit(run('r1'));
    const afterEmit = hub.admission.chargedMs;
    expect(afterEmit).toBeGreaterThanOrEqual(2);
    vi.advanceTimersByTime(16);
    expect(exported).toEqual([['r1']]);
    expect(hub.admission.chargedMs - afterEmit).toBeGreaterThanOrEqual(3 + 5);
  });
});
