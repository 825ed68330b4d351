import type { Logger } from '../core/logger.ts';
import type { PlatformTransport } from './api-http.ts';
import type { Capability } from './capability.ts';

export interface BatchShipperOptions {
  /** `/v1/traces` or `/v1/logs`. */
  path: string;
  /** Records held while waiting to be sent; more are dropped (the bound on memory). */
  maxQueue: number;
  /** Records per request. */
  maxBatch: number;
  /** How often a partial batch is sent. */
  flushIntervalMs: number;
  /** Longest a send may take; telemetry must never hold anything up. */
  timeoutMs?: number;
}

const WARN_EVERY_MS = 30_000;

/**
 * Ships telemetry records in batches, one request at a time. Pushing never blocks and never
 * fails: past `maxQueue` records are dropped and counted, and a batch that cannot be sent is
 * dropped too (spec 1 §4.6), so a slow or stopped platform costs a bounded amount of memory.
 */
export class BatchShipper {
  private queue: unknown[] = [];
  private sending: Promise<void> | undefined;
  private timer: NodeJS.Timeout | undefined;
  private flushSoon = false;
  private closed = false;
  private lastWarn = 0;
  /** Records dropped so far (queue full or send failed). */
  dropped = 0;
  sent = 0;

  constructor(
    private readonly http: PlatformTransport,
    private readonly cap: Capability,
    private readonly opts: BatchShipperOptions,
    private readonly log: Logger,
  ) {
    this.timer = setInterval(() => void this.flush(), opts.flushIntervalMs);
    this.timer.unref();
  }

  /** Records waiting to be sent. */
  get queued(): number {
    return this.queue.length;
  }

  push(record: unknown): void {
    if (this.closed || !this.cap.usable) return;
    if (this.queue.length >= this.opts.maxQueue) {
      this.dropped++;
      return;
    }
    this.queue.push(record);
    if (this.queue.length >= this.opts.maxBatch && !this.flushSoon) {
      this.flushSoon = true;
      setImmediate(() => {
        this.flushSoon = false;
        void this.flush();
      });
    }
  }

  /** Sends what is queued, one batch per request; resolves when the queue is empty or a send failed. */
  flush(): Promise<void> {
    if (this.sending) return this.sending;
    if (this.queue.length === 0) return Promise.resolve();
    this.sending = this.drain().finally(() => {
      this.sending = undefined;
    });
    return this.sending;
  }

  /** Sends what is left (bounded by the send timeout) and stops. */
  async close(): Promise<void> {
    clearInterval(this.timer);
    await this.flush();
    this.closed = true;
    this.queue = [];
  }

  private async drain(): Promise<void> {
    while (this.queue.length > 0 && this.cap.usable) {
      const batch = this.queue.splice(0, this.opts.maxBatch);
      try {
        const res = await this.http.call({
          method: 'POST',
          path: this.opts.path,
          json: { records: batch },
          capability: this.cap,
          timeoutMs: this.opts.timeoutMs ?? 5000,
        });
        if (res.status === 202 || res.status === 200 || res.status === 204) {
          this.sent += batch.length;
          continue;
        }
        this.drop(batch.length, `${res.route} answered ${res.status}`);
      } catch (err) {
        this.drop(batch.length, (err as Error).message);
      }
      return;
    }
    if (!this.cap.usable) this.queue = [];
  }

  private drop(count: number, why: string): void {
    this.dropped += count;
    const now = Date.now();
    if (now - this.lastWarn < WARN_EVERY_MS) return;
    this.lastWarn = now;
    // This warning may itself be shipped later; the rate limit keeps that from feeding itself.
    this.log.warn(`dropped ${count} telemetry records that could not be sent (${this.dropped} so far)`, { route: this.opts.path, error: why });
  }
}
