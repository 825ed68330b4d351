import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { silentLogger } from '../core/logger.ts';
import { TelemetryPipeline, type RecordExporter } from './telemetry-pipeline.ts';

/** An exporter whose batches are confirmed when the test says so, recording what it was handed. */
class HeldExporter implements RecordExporter<number> {
  readonly batches: number[][] = [];
  readonly waiting: Array<(ok: boolean) => void> = [];
  inFlight = 0;
  mostInFlight = 0;
  constructor(readonly overlapping: boolean) {}

  export(batch: readonly number[]): Promise<boolean> {
    this.batches.push([...batch]);
    this.inFlight++;
    this.mostInFlight = Math.max(this.mostInFlight, this.inFlight);
    return new Promise((resolve) =>
      this.waiting.push((ok) => {
        this.inFlight--;
        resolve(ok);
      }),
    );
  }

  /** Confirms what is waiting now, in order, with `ok` for each, and lets the pipeline go on. */
  async confirm(...oks: boolean[]): Promise<void> {
    for (const ok of oks) this.waiting.shift()!(ok);
    await new Promise((resolve) => setImmediate(resolve));
    await new Promise((resolve) => setImmediate(resolve));
  }
}

const pipelines: Array<TelemetryPipeline<number>> = [];
afterEach(async () => {
  for (const p of pipelines.splice(0)) void p.close();
});

function pipeline(exporter: HeldExporter, maxQueue = 10_000): TelemetryPipeline<number> {
  const p = new TelemetryPipeline(exporter, { maxBatch: 4, maxQueue, flushIntervalMs: 60_000, what: 'records' }, silentLogger);
  pipelines.push(p);
  return p;
}

const pushAll = (p: TelemetryPipeline<number>, from: number, count: number): void => {
  for (let i = from; i < from + count; i++) p.push(i);
};

describe('the telemetry pipeline hands a queue on in batches, in order', () => {
  it('one batch in flight at a time for an exporter that needs it; a long queue goes out whole, in order, no batch larger than maxBatch', async () => {
    const exporter = new HeldExporter(false);
    const p = pipeline(exporter);
    pushAll(p, 1, 10);
    const flushed = p.flush();
    await exporter.confirm();
    expect(exporter.batches).toEqual([[1, 2, 3, 4]]);
    // Records that arrive meanwhile wait behind the ones already taken.
    pushAll(p, 11, 3);
    await exporter.confirm(true);
    await exporter.confirm(true);
    await exporter.confirm(true);
    await exporter.confirm(true);
    await flushed;
    expect(exporter.batches).toEqual([[1, 2, 3, 4], [5, 6, 7, 8], [9, 10], [11, 12, 13]]);
    expect(exporter.mostInFlight).toBe(1);
    expect(p.counts).toEqual({ queued: 0, dropped: 0, sent: 13 });
  });

  it('hands batches on without waiting for confirmations to an exporter that keeps order, and a flush ends once all are confirmed', async () => {
    const exporter = new HeldExporter(true);
    const p = pipeline(exporter);
    pushAll(p, 1, 10);
    let done = false;
    const flushed = p.flush().then(() => (done = true));
    await exporter.confirm();
    expect(exporter.batches).toEqual([[1, 2, 3, 4], [5, 6, 7, 8], [9, 10]]);
    expect(exporter.mostInFlight).toBe(3);
    await exporter.confirm(true, true);
    expect(done).toBe(false);
    await exporter.confirm(true);
    await flushed;
    expect(p.counts).toEqual({ queued: 0, dropped: 0, sent: 10 });
  });

  it('drops a batch the destination refused, counts it, and hands the rest on next, ahead of newer records', async () => {
    const exporter = new HeldExporter(false);
    const p = pipeline(exporter);
    pushAll(p, 1, 10);
    void p.flush();
    await exporter.confirm(false);
    expect(p.counts.dropped).toBe(4);
    // The flush the 4th push asked for takes what was left, oldest first.
    expect(exporter.batches).toEqual([[1, 2, 3, 4], [5, 6, 7, 8]]);
    pushAll(p, 11, 1);
    await exporter.confirm(true);
    await exporter.confirm(true);
    // A record that came during that export waits for a full batch, the interval, or a flush.
    expect(exporter.batches.slice(1)).toEqual([[5, 6, 7, 8], [9, 10]]);
    const flushed = p.flush();
    await exporter.confirm(true);
    await flushed;
    expect(exporter.batches.slice(1)).toEqual([[5, 6, 7, 8], [9, 10], [11]]);
    expect(p.counts).toEqual({ queued: 0, dropped: 4, sent: 7 });
  });

  it('counts records still being handed on against maxQueue, so a slow destination bounds memory', async () => {
    const exporter = new HeldExporter(false);
    const p = pipeline(exporter, 12);
    pushAll(p, 1, 12);
    const flushed = p.flush();
    await exporter.confirm();
    // 8 of the 12 are not yet handed on: room for 4 more, not 12.
    pushAll(p, 13, 6);
    expect(p.counts.dropped).toBe(2);
    for (let i = 0; i < 4; i++) await exporter.confirm(true);
    await flushed;
    expect(p.counts.sent).toBe(16);
  });

  it('under steady load, records that arrive while a batch is handed on wait for a full batch, not a batch a turn', async () => {
    // Like the embedded platform: each batch is confirmed a turn of the event loop later.
    const batches: number[][] = [];
    const exporter: RecordExporter<number> = {
      overlapping: true,
      export: (batch) => {
        batches.push([...batch]);
        return new Promise((resolve) => setImmediate(() => resolve(true)));
      },
    };
    const p = new TelemetryPipeline(exporter, { maxBatch: 4, maxQueue: 10_000, flushIntervalMs: 60_000, what: 'records' }, silentLogger);
    let next = 1;
    // Two records a turn for 20 turns: the 4th asks for an export, which then runs beside the load.
    for (let turn = 0; turn < 20; turn++) {
      pushAll(p, next, 2);
      next += 2;
      await new Promise((resolve) => setImmediate(resolve));
    }
    expect(batches.length).toBeGreaterThan(3);
    expect(batches.every((b) => b.length === 4)).toBe(true);
    await p.close();
    expect(batches.flat()).toEqual(Array.from({ length: 40 }, (_, i) => i + 1));
  });
});

describe('with maxWaitMs, a record waits at most that long for the rest of its batch', () => {
  // The pipeline's timers on a clock the test moves; immediates stay real, as HeldExporter.confirm uses them.
  beforeEach(() => void vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'setInterval', 'clearInterval'] }));
  afterEach(() => void vi.useRealTimers());

  function waiting(exporter: HeldExporter, maxBatch = 128): TelemetryPipeline<number> {
    const p = new TelemetryPipeline(exporter, { maxBatch, maxQueue: 10_000, flushIntervalMs: 60_000, maxWaitMs: 16, what: 'records' }, silentLogger);
    pipelines.push(p);
    return p;
  }

  it('hands a partial batch on maxWaitMs after its first record, with every record that came meanwhile, long before the interval', async () => {
    const exporter = new HeldExporter(true);
    const p = waiting(exporter);
    p.push(1);
    vi.advanceTimersByTime(10);
    p.push(2);
    vi.advanceTimersByTime(5);
    expect(exporter.batches).toEqual([]);
    vi.advanceTimersByTime(1);
    expect(exporter.batches).toEqual([[1, 2]]);
    await exporter.confirm(true);
    // The next record starts a wait of its own.
    p.push(3);
    vi.advanceTimersByTime(15);
    expect(exporter.batches).toEqual([[1, 2]]);
    vi.advanceTimersByTime(1);
    expect(exporter.batches).toEqual([[1, 2], [3]]);
    await exporter.confirm(true);
    expect(p.counts).toEqual({ queued: 0, dropped: 0, sent: 3 });
  });

  it('a record that arrives while a batch is still being handed on goes out after it, without waiting for the interval', async () => {
    const exporter = new HeldExporter(false);
    const p = waiting(exporter);
    p.push(1);
    vi.advanceTimersByTime(16);
    expect(exporter.batches).toEqual([[1]]);
    // Its wait ends while [1] is unconfirmed: one batch in flight at a time, so it waits on.
    p.push(2);
    vi.advanceTimersByTime(16);
    expect(exporter.batches).toEqual([[1]]);
    await exporter.confirm(true);
    vi.advanceTimersByTime(16);
    expect(exporter.batches).toEqual([[1], [2]]);
    await exporter.confirm(true);
    expect(p.counts).toEqual({ queued: 0, dropped: 0, sent: 2 });
  });

  it('a full batch still goes at once, without its wait', async () => {
    const exporter = new HeldExporter(true);
    const p = waiting(exporter, 4);
    pushAll(p, 1, 4);
    await exporter.confirm();
    expect(exporter.batches).toEqual([[1, 2, 3, 4]]);
    await exporter.confirm(true);
  });
});
