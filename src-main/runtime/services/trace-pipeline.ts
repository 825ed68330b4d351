import type { Logger } from '../core/logger.ts';
import type { TraceEvent, TraceHub, TraceSink } from '../core/trace.ts';
import type { TraceExporter } from './trace-exporter.ts';
import { TraceSampler, type TraceSampling } from './trace-sampling.ts';

export interface TracePipelineOptions {
  /** Records per export. */
  maxBatch: number;
  /** Records held waiting for export; beyond it records are dropped and counted, never waited for. */
  maxQueue: number;
  /** How often a partial batch is exported. */
  flushIntervalMs: number;
  sampling: TraceSampling;
}

export interface TracePipelineStats {
  queued: number;
  /** Records dropped: the queue was full (overload) or an export failed. */
  dropped: number;
  sent: number;
  /** Runs left out by sampling (never counted as dropped). */
  sampledOut: number;
}

const WARN_EVERY_MS = 30_000;

/**
 * Takes trace records off the request path: emitting one is an array push (no copy, no masking,
 * no serialization), and batches go to the exporter from a later turn of the event loop, one
 * export at a time. Under overload the bounded queue drops and counts records rather than slow
 * a request or grow memory.
 */
export class TracePipeline {
  private queue: TraceEvent[] = [];
  private exporting: Promise<void> | undefined;
  private flushSoon = false;
  private closed = false;
  private lastWarn = 0;
  private readonly timer: NodeJS.Timeout;
  private readonly sampler: TraceSampler | undefined;
  private readonly stats = { dropped: 0, sent: 0 };
  private hub: TraceHub | undefined;
  private detach: (() => void) | undefined;

  constructor(
    private readonly exporter: TraceExporter,
    private readonly opts: TracePipelineOptions,
    private readonly log: Logger,
    /** False once the destination is gone for good (a 501): records are then not even queued. */
    private readonly usable: () => boolean = () => true,
  ) {
    this.sampler = opts.sampling.ratio < 1 ? new TraceSampler(opts.sampling) : undefined;
    this.timer = setInterval(() => void this.flush(), opts.flushIntervalMs);
    this.timer.unref();
  }

  /** Exports the hub's records while attached. */
  attach(hub: TraceHub): () => void {
    this.hub = hub;
    const sink: TraceSink = { unredacted: true, emit: this.sampler ? (e) => this.sampler!.admit(e, this.push) : this.push };
    const detach = hub.add(sink);
    this.detach = detach;
    return detach;
  }

  readonly push = (event: TraceEvent): void => {
    if (this.closed) return;
    const q = this.queue;
    if (q.length >= this.opts.maxQueue) {
      this.stats.dropped++;
      this.warn('trace records are arriving faster than they can be exported; dropping them rather than slowing requests');
      return;
    }
    q.push(event);
    if (q.length >= this.opts.maxBatch && !this.flushSoon) {
      this.flushSoon = true;
      setImmediate(() => {
        this.flushSoon = false;
        void this.flush();
      });
    }
  };

  get counts(): TracePipelineStats {
    return { queued: this.queue.length, dropped: this.stats.dropped, sent: this.stats.sent, sampledOut: this.sampler?.sampledOut ?? 0 };
  }

  /** Exports what is queued, a batch at a time; resolves when the queue is empty or an export failed. */
  flush(): Promise<void> {
    if (this.exporting) return this.exporting;
    if (this.queue.length === 0) return Promise.resolve();
    this.exporting = this.drain().finally(() => {
      this.exporting = undefined;
    });
    return this.exporting;
  }

  /** Exports what is left (bounded by the exporter's timeout) and stops. */
  async close(): Promise<void> {
    clearInterval(this.timer);
    await this.flush();
    this.closed = true;
    this.queue = [];
  }

  private async drain(): Promise<void> {
    while (this.queue.length > 0) {
      if (!this.usable()) {
        // Turned off for the life of the process (a 501): the hub stops recording for it.
        this.detach?.();
        this.queue = [];
        return;
      }
      const batch = this.queue.length <= this.opts.maxBatch ? this.queue : this.queue.slice(0, this.opts.maxBatch);
      this.queue = batch === this.queue ? [] : this.queue.slice(batch.length);
      let why: string;
      try {
        if (await this.exporter.export(batch, this.hub?.redactor)) {
          this.stats.sent += batch.length;
          continue;
        }
        why = 'the destination refused the batch';
      } catch (err) {
        why = (err as Error).message;
      }
      this.drop(batch.length, why);
      return;
    }
  }

  private drop(count: number, why: string): void {
    this.stats.dropped += count;
    this.warn(`dropped ${count} trace records that could not be exported`, why);
  }

  /** At most one warning per 30 s: the log may itself be shipped, and overload must not feed itself. */
  private warn(what: string, error?: string): void {
    const now = Date.now();
    if (now - this.lastWarn < WARN_EVERY_MS) return;
    this.lastWarn = now;
    this.log.warn(`${what} (${this.stats.dropped} dropped so far)`, error ? { error } : {});
  }
}
