import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import type { Clock } from '../../../../shared/clock.ts';
import { workerStart } from '../../../../shared/ts-worker-boot.ts';
import type { Retention, TelemetryBatch, TelemetryKind, TelemetryRecord, TelemetryStore } from '../telemetry-store.ts';
import type { SqliteTelemetry } from './sqlite-telemetry.ts';

export interface WriterSetup {
  file: string;
  retention: Record<TelemetryKind, Retention>;
}

/** What the writer is asked, made at `at` on the caller's clock. */
type WriterAsk = { at: number } & (
  | { op: 'append'; kind: TelemetryKind; count: number; text: string }
  | { op: 'prune'; kind: TelemetryKind }
  | { op: 'close' }
);
export type WriterRequest = WriterAsk & { id: number };

type Kept = { records: number; bytes: number };
export type WriterReply = { ready: true } | { id: number; kept: Kept } | { id: number; error: string } | { id: number; closed: true };

/** The writer's thread is gone (it did not start, or died): callers write on their own connection. */
class WriterGone extends Error {}

/**
 * Trace and log batches are stored from a worker thread on a connection of its own: a batch's
 * insert (and a trim now and then) is about 0.1 ms of SQLite per 128 records that no longer runs
 * between requests. Requests are answered in order, each once committed, so an append resolves
 * when its batch is stored, as it did on the main thread.
 *
 * Started on one core too. An insert is CPU and a wait: its WAL writes (a 26 KB batch is a dozen
 * write calls) stall when the kernel throttles dirty pages or the checkpointer syncs, and on the
 * request thread every request waits with it. Pinned to one core with every run traced
 * (`flow-studio run`, FLOW_TRACE_SATURATED_RATE=all, wrk -c50) on a busy machine, the writer
 * thread served 1.3–1.7× the requests a second in four interleaved pairs at the same CPU per
 * request (58–63 µs either way): the hand-over costs about what the insert it moves costs, and
 * the waiting leaves the request thread (docs/observability.md has bench:http's figures).
 */
export class TelemetryWriter {
  private readonly worker: Worker;
  private readonly pending = new Map<number, { resolve(kept: Kept | undefined): void; reject(err: Error): void }>();
  private nextId = 1;
  private gone: Error | undefined;

  static start(setup: WriterSetup): TelemetryWriter {
    return new TelemetryWriter(setup);
  }

  private constructor(setup: WriterSetup) {
    const source = new URL('./telemetry-writer-worker.ts', import.meta.url);
    const { target, options } = workerStart(
      source,
      new URL('../../../../dist-electron/telemetry-writer-worker.js', import.meta.url),
      { sourceExists: existsSync(fileURLToPath(source)), tsxPackage: () => createRequire(import.meta.url).resolve('tsx/package.json') },
      { ...setup },
    );
    this.worker = new Worker(target, options);
    // Requests posted before the worker listens wait in its port. The worker keeps the process
    // alive only while a batch is on its way: a stopping process still stores what it handed on.
    this.worker.unref();
    this.worker.on('message', (m: WriterReply) => {
      if (!('id' in m)) return;
      const waiting = this.pending.get(m.id);
      this.pending.delete(m.id);
      if (this.pending.size === 0) this.worker.unref();
      if ('error' in m) waiting?.reject(new Error(m.error));
      else waiting?.resolve('kept' in m ? m.kept : undefined);
    });
    this.worker.on('error', (err) => this.fail(err));
    this.worker.on('exit', (code) => this.fail(new Error(`the telemetry writer exited with ${code}`)));
  }

  get available(): boolean {
    return this.gone === undefined;
  }

  request(message: WriterAsk): Promise<Kept | undefined> {
    if (this.gone) return Promise.reject(new WriterGone(this.gone.message));
    const id = this.nextId++;
    if (this.pending.size === 0) this.worker.ref();
    return new Promise((resolve, reject) => {
      this.pending.set(id, { resolve, reject });
      this.worker.postMessage({ ...message, id });
    });
  }

  /** Stores what was asked before, closes the worker's connection and ends the thread. */
  async close(at: number): Promise<void> {
    if (this.gone) return;
    const closed = this.request({ op: 'close', at }).catch(() => undefined);
    await Promise.race([closed, new Promise((resolve) => setTimeout(resolve, 10_000).unref())]);
    this.gone = new Error('closed');
    await this.worker.terminate();
  }

  private fail(err: Error): void {
    this.gone ??= err;
    for (const waiting of this.pending.values()) waiting.reject(new WriterGone(err.message));
    this.pending.clear();
    this.worker.unref();
  }
}

/**
 * Appends a second, of traces and logs together, from which the writer's thread is worth its
 * cost: below that rate a batch's insert on the request thread is a fraction of a millisecond a
 * second, and an idle platform (an embedded one whose runtime has answered a request or two)
 * keeps the 10-odd MB and the start-up CPU of a thread with SQLite in it.
 */
export const WRITER_AFTER_APPENDS_PER_SECOND = 8;

/**
 * The writer's thread, started once appends arrive at WRITER_AFTER_APPENDS_PER_SECOND; until
 * then batches are stored on the caller's connection. Every write before the start is committed
 * when the thread opens the file, which it reads its counts and next record id from.
 */
export class OnDemandWriter {
  private writer: TelemetryWriter | undefined;
  private windowStart = Number.NEGATIVE_INFINITY;
  private inWindow = 0;
  private closed = false;

  constructor(
    private readonly setup: WriterSetup,
    private readonly clock: Clock,
    private readonly startAfter = WRITER_AFTER_APPENDS_PER_SECOND,
  ) {}

  /** The writer, if started. */
  get started(): TelemetryWriter | undefined {
    return this.writer;
  }

  /** Counts an append; the writer once the rate says so (started by this call, maybe), else undefined. */
  forAppend(): TelemetryWriter | undefined {
    if (this.writer || this.closed) return this.writer;
    const now = this.clock.now();
    if (now - this.windowStart >= 1000) {
      this.windowStart = now;
      this.inWindow = 0;
    }
    if (++this.inWindow >= this.startAfter) this.writer = TelemetryWriter.start(this.setup);
    return this.writer;
  }

  async close(at: number): Promise<void> {
    // Nothing starts a writer after this.
    this.closed = true;
    await this.writer?.close(at);
  }
}

/**
 * One kind of telemetry whose appends and prunes run on the writer's thread, while pages are read
 * on this thread's connection (`local`). Should the writer be gone, `local` takes over the writes,
 * after reading the counts and next record id the writer left in the file. With an OnDemandWriter
 * not started yet, `local` writes as well.
 */
export class OffThreadTelemetry implements TelemetryStore {
  private keptNow: Kept;
  private takenOver = false;

  constructor(
    private readonly kind: TelemetryKind,
    private readonly local: SqliteTelemetry,
    private readonly writer: TelemetryWriter | OnDemandWriter,
    private readonly clock: Clock,
  ) {
    this.keptNow = local.kept;
  }

  get kept(): Kept {
    return this.takenOver ? this.local.kept : this.keptNow;
  }

  async append(batch: TelemetryBatch): Promise<void> {
    if (batch.count === 0) return;
    await this.onWriter(
      'append',
      (writer) => writer.request({ op: 'append', kind: this.kind, count: batch.count, text: batch.text, at: this.clock.now() }),
      () => this.local.appendNow(batch),
    );
  }

  async prune(): Promise<void> {
    await this.onWriter('prune', (writer) => writer.request({ op: 'prune', kind: this.kind, at: this.clock.now() }), () => this.local.pruneNow());
  }

  async list(options?: { limit?: number; beforeId?: number }): Promise<TelemetryRecord[]> {
    return this.local.listNow(options);
  }

  private writerFor(op: 'append' | 'prune'): TelemetryWriter | undefined {
    if (this.writer instanceof TelemetryWriter) return this.writer;
    return op === 'append' ? this.writer.forAppend() : this.writer.started;
  }

  private async onWriter(op: 'append' | 'prune', remote: (writer: TelemetryWriter) => Promise<Kept | undefined>, here: () => void): Promise<void> {
    if (!this.takenOver) {
      const writer = this.writerFor(op);
      if (!writer) {
        // Not started yet: this thread's connection writes, as it will if the writer goes.
        here();
        this.keptNow = this.local.kept;
        return;
      }
      if (writer.available) {
        try {
          this.keptNow = (await remote(writer)) ?? this.keptNow;
          return;
        } catch (err) {
          if (!(err instanceof WriterGone)) throw err;
        }
      }
      this.takenOver = true;
      this.local.resync();
    }
    here();
  }
}
