import type { Clock, ClockTimer } from './clock.ts';

/** One distinct failure of a window: the first of its kind (written in full) and how many like it were not. */
export interface HeldFailure<F> {
  first: F;
  count: number;
}

/** What a window held back, said once when it ends. */
export interface FailureWindowSummary<F> {
  /** Failures not written one by one: repeats, and those past `maxDistinct`. */
  suppressed: number;
  /** The time the window covered, in whole seconds (at least 1): less than the interval when flushed. */
  seconds: number;
  /** The distinct failures with repeats held back, the most frequent first. */
  failures: HeldFailure<F>[];
  /** The newest failure held back. */
  latest: F;
}

export interface FailureWindowOptions<F> {
  clock: Clock;
  /** The window in which each failure is written once in full; the rest of it is one summary. */
  intervalMs?: number;
  /** Distinct failures written in full per window, and kept for its summary: the bound under a flood of different errors. */
  maxDistinct?: number;
  /** Called when a window that held something back ends (its interval passed, or `flush`). */
  onSummary(summary: FailureWindowSummary<F>): void;
}

const DEFAULT_INTERVAL_MS = 60_000;
const DEFAULT_MAX_DISTINCT = 20;

/**
 * Bounds the lines a flood of failures writes: within a window of `intervalMs` (from its first
 * failure) each distinct failure (by `key`) is let through once, and the rest are counted into
 * one summary when the window ends. `flow-studio run`'s failed-run line (RunFailureLog) and the
 * studio's Logs line for a failed run both use it, one window per flow.
 */
export class FailureWindow<F> {
  private readonly intervalMs: number;
  private readonly maxDistinct: number;
  private readonly seen = new Map<string, HeldFailure<F>>();
  private suppressed = 0;
  private latest: F | undefined;
  private timer: ClockTimer | undefined;
  private windowStart = 0;

  constructor(private readonly o: FailureWindowOptions<F>) {
    this.intervalMs = o.intervalMs ?? DEFAULT_INTERVAL_MS;
    this.maxDistinct = o.maxDistinct ?? DEFAULT_MAX_DISTINCT;
  }

  /** Whether to write this failure in full: true for the first of its `key` in the window, else it is counted. */
  admit(key: string, failure: F): boolean {
    if (this.timer === undefined) {
      this.windowStart = this.o.clock.now();
      this.timer = this.o.clock.setTimeout(() => this.endWindow(), this.intervalMs, { unref: true });
    }
    const known = this.seen.get(key);
    if (known || this.seen.size >= this.maxDistinct) {
      if (known) known.count++;
      this.suppressed++;
      this.latest = failure;
      return false;
    }
    this.seen.set(key, { first: failure, count: 0 });
    return true;
  }

  /** Ends the window now (its source stopping), saying what it held back. */
  flush(): void {
    this.o.clock.clearTimeout(this.timer);
    this.endWindow();
  }

  private endWindow(): void {
    this.timer = undefined;
    const { suppressed, latest } = this;
    // A flush ends the window early: the summary names the time it covered.
    const seconds = Math.max(1, Math.round((this.o.clock.now() - this.windowStart) / 1000));
    const failures = [...this.seen.values()].filter((c) => c.count > 0).sort((a, b) => b.count - a.count);
    this.seen.clear();
    this.suppressed = 0;
    this.latest = undefined;
    // Told after the window is reset, so a failure the summary's writer causes starts the next one.
    if (suppressed > 0) this.o.onSummary({ suppressed, seconds, failures, latest: latest as F });
  }
}
