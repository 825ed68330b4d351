import { performance, type EventLoopUtilization } from 'node:perf_hooks';

/** How busy this thread's event loop was since the previous call, 0..1. */
export type LoadMeter = () => number;

/** The event loop's utilization between two calls, as Node measures it (time not spent waiting for I/O). */
export function eventLoopMeter(): LoadMeter {
  let last: EventLoopUtilization = performance.eventLoopUtilization();
  return () => {
    const now = performance.eventLoopUtilization();
    const busy = performance.eventLoopUtilization(now, last).utilization;
    last = now;
    return busy;
  };
}

export interface TraceAdmissionOptions {
  /**
   * Runs traced per second while the thread is saturated; the rest are counted, not traced.
   * `Infinity` traces every run whatever the load (`FLOW_TRACE_SATURATED_RATE=all`).
   */
  saturatedRate: number;
  /**
   * Runs the bucket holds: traced at once when saturation begins, so a burst of runs (a batch of
   * queue messages) smaller than it passes whole. Default a quarter second of the rate.
   */
  burst: number;
  /** Length of the window whose load decides the next one. */
  windowMs: number;
  /** Busy share of a window from which the thread counts as saturated. */
  saturatedAt: number;
  meter: LoadMeter;
  now: () => number;
}

export const DEFAULT_SATURATED_RATE = 1000;

/**
 * Whether a run is traced (and an http exchange captured): every one while the request thread has
 * time to spare; while it is saturated — busy for at least 90% of a window of 25 ms, so tracing
 * every run could only slow requests — at most `saturatedRate` a second (a token bucket holding
 * `burst`, so bursts below the rate pass whole), the rest counted in `shed` (a shed run that
 * fails still gets its run record: `keptAfterAll`). Saturation ends after two windows in a row
 * with time to spare, or a quiet spell: a request arriving after the load is gone is traced
 * at once, as the first call after a window's end measures it. A call costs a clock read, and a
 * load reading once a window.
 */
export class TraceAdmission {
  /** Runs (and exchanges) not traced because the thread was saturated. */
  shed = 0;
  /** True from a saturated window until two windows in a row (or a long quiet spell) were not. */
  saturated = false;
  /** Called when a window turns saturated after one that was not (a log line, rate-limited by the caller). */
  onSaturated: (() => void) | undefined;
  private readonly opts: Omit<TraceAdmissionOptions, 'burst'>;
  /** The bucket's size: the option, else a quarter second of the rate (changing the rate changes it). */
  private readonly burstOption: number | undefined;
  private windowEnd: number;
  /** Runs that may still be traced while saturated: refilled at the rate, holding at most `burst`. */
  private tokens: number;
  private filledAt: number;
  /** Windows in a row with time to spare while still counted saturated. */
  private calm = 0;

  constructor(options: Partial<TraceAdmissionOptions> = {}) {
    this.opts = {
      saturatedRate: options.saturatedRate ?? DEFAULT_SATURATED_RATE,
      // Short, so a burst after idle is traced whole for at most 25 ms before its load is measured.
      windowMs: options.windowMs ?? 25,
      saturatedAt: options.saturatedAt ?? 0.9,
      meter: options.meter ?? eventLoopMeter(),
      now: options.now ?? (() => performance.now()),
    };
    this.burstOption = options.burst;
    this.filledAt = this.opts.now();
    this.windowEnd = this.filledAt + this.opts.windowMs;
    this.tokens = this.burst;
  }

  /** Changes the rate (`FLOW_TRACE_SATURATED_RATE`), from the next call on. */
  set saturatedRate(rate: number) {
    this.opts.saturatedRate = rate;
  }

  get saturatedRate(): number {
    return this.opts.saturatedRate;
  }

  /** Runs traced at once when saturation begins (the bucket's size). */
  get burst(): number {
    const rate = this.opts.saturatedRate;
    return rate === Infinity ? Infinity : rate === 0 ? 0 : (this.burstOption ?? rate / 4);
  }

  /** True to trace this run; false counts it as shed. */
  admit(): boolean {
    const now = this.opts.now();
    if (now >= this.windowEnd) this.nextWindow(now);
    if (!this.saturated) return true;
    const rate = this.opts.saturatedRate;
    if (rate === Infinity) return true;
    // Refilled for all the time since the last saturated call, calm spells included: saturation begins with a full bucket.
    this.tokens = Math.min(this.burst, this.tokens + ((now - this.filledAt) * rate) / 1000);
    this.filledAt = now;
    if (this.tokens >= 1) {
      this.tokens--;
      return true;
    }
    this.shed++;
    return false;
  }

  /** A shed run recorded after all (it failed): no longer counted as shed. */
  keptAfterAll(): void {
    this.shed--;
  }

  private nextWindow(now: number): void {
    const { windowMs, saturatedAt, saturatedRate, meter } = this.opts;
    // Two windows' time or more since the last one began, with no call: the time between was a quiet spell.
    const quietSpell = now - (this.windowEnd - windowMs) >= 2 * windowMs;
    this.windowEnd = now + windowMs;
    const was = this.saturated;
    if (meter() >= saturatedAt) {
      this.saturated = true;
      this.calm = 0;
    } else if (this.saturated) {
      // One window with a gap in a saturating load is common (the client paused, a burst ended
      // early); tracing everything for it would cost the most at the worst time. Two in a row, or
      // a quiet spell, mean the load is gone.
      if (++this.calm >= 2 || quietSpell) this.saturated = false;
    }
    if (this.saturated && !was && saturatedRate !== Infinity) this.onSaturated?.();
  }
}

/** Reads `FLOW_TRACE_SATURATED_RATE`: runs a second, or `all`; undefined when unset; a bad value is an error naming it. */
export function saturatedRateFromEnv(env: Record<string, string | undefined>): number | undefined {
  const text = env.FLOW_TRACE_SATURATED_RATE?.trim().toLowerCase();
  if (text === undefined || text === '') return undefined;
  if (text === 'all') return Infinity;
  const rate = Number(text);
  if (!Number.isInteger(rate) || rate < 0) {
    throw new Error(
      `FLOW_TRACE_SATURATED_RATE must be a whole number of runs a second (traced while the request thread is saturated) or "all", got "${env.FLOW_TRACE_SATURATED_RATE}"`,
    );
  }
  return rate;
}
