import { performance } from 'node:perf_hooks';
import type { Logger, SecretRedactor } from '../core/logger.ts';

/**
 * Where a batch of telemetry records leaves the runtime: the platform's /v1/traces or /v1/logs
 * over HTTP, the embedded platform's store in this process, an OpenTelemetry exporter. It gets
 * whole batches, off the request path, with secrets not yet masked: masking is the exporter's,
 * done once on what it sends.
 */
export interface RecordExporter<T> {
  /**
   * Sends one batch. Resolves true when the destination took it; false or a rejection drops it.
   * `charge`: given the time of work it does on this thread in a later turn (storing a batch in
   * this process); the pipeline times the call itself.
   */
  export(batch: readonly T[], redactor: SecretRedactor | undefined, charge?: (ms: number) => void): Promise<boolean> | boolean;
  /**
   * True when batches may be handed on before the previous one is confirmed, because the
   * destination keeps them in order (the embedded platform's writer thread). Otherwise one batch
   * is in flight at a time.
   */
  readonly overlapping?: boolean;
}

export interface TelemetryPipelineOptions {
  /** Records per export. */
  maxBatch: number;
  /** Records held waiting for export; beyond it records are dropped and counted, never waited for. */
  maxQueue: number;
  /** How often a partial batch is exported. */
  flushIntervalMs: number;
  /**
   * Longest a record waits in the queue before its (partial) batch is exported. A record held
   * across two of V8's young-generation collections (tens of ms apart under load) is promoted to
   * the old generation, whose collections are the pauses a request's p99 feels; kept shorter than
   * that, a record dies young. Unset: only full batches and the interval export.
   */
  maxWaitMs?: number;
  /** What the records are, in warnings: `trace records`, `log records`. */
  what: string;
}

export interface TelemetryPipelineStats {
  queued: number;
  /** Records dropped: the queue was full (overload) or an export failed. */
  dropped: number;
  sent: number;
}

const WARN_EVERY_MS = 30_000;

/**
 * Takes telemetry records off the request path: pushing one is an array push (no copy, no
 * masking, no serialization), and batches go to the exporter from a later turn of the event loop,
 * one export at a time. Under overload the bounded queue drops and counts records rather than
 * slow a request or grow memory. Traces and logs both ship through it.
 */
export class TelemetryPipeline<T> {
  private queue: T[] = [];
  private exporting: Promise<void> | undefined;
  private flushSoon = false;
  private closed = false;
  private lastWarn = 0;
  /** Records taken from the queue by the export under way and not yet handed on: they count against maxQueue. */
  private handingOn = 0;
  private readonly timer: NodeJS.Timeout;
  /** Armed by the first record queued after an export took the queue; one Timeout, re-armed with refresh(). */
  private waitTimer: NodeJS.Timeout | undefined;
  private waiting = false;
  protected readonly stats = { dropped: 0, sent: 0 };

  constructor(
    private readonly exporter: RecordExporter<T>,
    private readonly opts: TelemetryPipelineOptions,
    private readonly log: Logger,
    /** False once the destination is gone for good (a 501): records are then not even queued. */
    private readonly usable: () => boolean = () => true,
    /** Called once when the destination turned out to be gone for good. */
    private readonly onUnusable: () => void = () => {},
  ) {
    this.timer = setInterval(() => void this.ship(false), opts.flushIntervalMs);
    this.timer.unref();
  }

  readonly push = (record: T): void => {
    if (this.closed) return;
    const q = this.queue;
    if (q.length + this.handingOn >= this.opts.maxQueue) {
      this.stats.dropped++;
      this.warn(`${this.opts.what} are arriving faster than they can be exported; dropping them rather than slowing requests`);
      return;
    }
    q.push(record);
    // Asked on every record, not only a batch's first: the wait may depend on load, which changes while a batch fills.
    if (!this.waiting) this.armWaitIfAny();
    if (q.length >= this.opts.maxBatch && !this.flushSoon) {
      this.flushSoon = true;
      setImmediate(() => {
        this.flushSoon = false;
        void this.ship(false);
      });
    }
  };

  /** Whether maxWaitMs applies now; a subclass may tie it to load. */
  protected waitsShort(): boolean {
    return true;
  }

  private armWaitIfAny(): void {
    const ms = this.opts.maxWaitMs;
    if (ms === undefined || this.waiting || !this.waitsShort()) return;
    this.waiting = true;
    if (this.waitTimer) this.waitTimer.refresh();
    else {
      this.waitTimer = setTimeout(() => {
        this.waiting = false;
        void this.ship(false);
      }, ms);
      this.waitTimer.unref();
    }
  }

  get counts(): TelemetryPipelineStats {
    return { queued: this.queue.length, dropped: this.stats.dropped, sent: this.stats.sent };
  }

  /** Exports what is queued, a batch at a time; resolves when the queue is empty or an export failed. */
  flush(): Promise<void> {
    return this.ship(true);
  }

  /**
   * Starts an export unless one is under way. `untilEmpty` false (the interval and a full batch)
   * takes what is queued now and then only full batches: records that arrive while a batch is
   * handed on wait for the next one, rather than go out a turn's worth at a time. Under steady
   * load that was a batch of a few records per turn, each with its own serialization and commit.
   */
  private ship(untilEmpty: boolean): Promise<void> {
    if (this.exporting) return untilEmpty ? this.exporting.then(() => this.ship(true)) : this.exporting;
    if (this.queue.length === 0) return Promise.resolve();
    this.exporting = this.drain(untilEmpty).finally(() => {
      this.exporting = undefined;
      // Records that came while the export ran (and a wait that ended meanwhile) get their own wait.
      if (this.queue.length > 0) this.armWaitIfAny();
    });
    return this.exporting;
  }

  /** Exports what is left (bounded by the exporter's timeout) and stops. */
  async close(): Promise<void> {
    clearInterval(this.timer);
    clearTimeout(this.waitTimer);
    await this.flush();
    this.closed = true;
    this.queue = [];
  }

  /**
   * Takes the whole queue and hands it on a batch at a time (records arriving meanwhile queue
   * anew), letting waiting requests run between batches: the exporter may work on this thread.
   * Taking the queue whole keeps a long queue from being copied once per batch.
   */
  private async drain(untilEmpty: boolean): Promise<void> {
    const max = this.opts.maxBatch;
    for (let first = true; first || this.queue.length >= (untilEmpty ? 1 : max); first = false) {
      if (!this.usable()) {
        // Turned off for the life of the process (a 501): nothing more is recorded for it.
        this.onUnusable();
        this.queue = [];
        return;
      }
      const taken = this.queue;
      this.queue = [];
      this.handingOn = taken.length;
      const confirmations: Array<Promise<boolean>> = [];
      for (let at = 0; at < taken.length; at += max) {
        const batch = taken.length <= max ? taken : taken.slice(at, at + max);
        this.handingOn -= batch.length;
        // The call's synchronous part (serializing the batch, at least) is this thread's work.
        const t0 = performance.now();
        const confirmed = this.exportOne(batch);
        this.charge(performance.now() - t0);
        if (this.exporter.overlapping) confirmations.push(confirmed);
        else if (!(await confirmed)) {
          // What was not handed on waits for the next flush, ahead of what came since.
          this.queue = taken.slice(at + max).concat(this.queue);
          this.handingOn = 0;
          return;
        }
        if (at + max < taken.length) await new Promise<void>((resolve) => setImmediate(resolve));
      }
      this.handingOn = 0;
      if ((await Promise.all(confirmations)).includes(false)) return;
    }
  }

  /** Exports one batch and counts it sent or dropped; false when it was dropped. */
  private async exportOne(batch: readonly T[]): Promise<boolean> {
    let why: string;
    try {
      if (await this.exporter.export(batch, this.redactor(), this.charge)) {
        this.stats.sent += batch.length;
        return true;
      }
      why = 'the destination refused the batch';
    } catch (err) {
      why = (err as Error).message;
    }
    this.stats.dropped += batch.length;
    this.warn(`dropped ${batch.length} ${this.opts.what} that could not be exported`, why);
    return false;
  }

  /** Takes the time this thread spent exporting (trace records count it against the tracing budget). */
  protected readonly charge = (ms: number): void => {
    this.chargeTo?.(ms);
  };

  /** Where `charge` goes; set by a subclass. */
  protected chargeTo: ((ms: number) => void) | undefined;

  /** What the exporter masks in a batch; log records arrive masked already. */
  protected redactor(): SecretRedactor | undefined {
    return undefined;
  }

  /** At most one warning per 30 s: the log may itself be shipped, and overload must not feed itself. */
  private warn(what: string, error?: string): void {
    const now = Date.now();
    if (now - this.lastWarn < WARN_EVERY_MS) return;
    this.lastWarn = now;
    this.log.warn(`${what} (${this.stats.dropped} dropped so far)`, error ? { error } : {});
  }
}
