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
  /**
   * Share of the thread's time that tracing's own measured work (trace hub sinks, batch
   * serialization and storing, reported through `charge`) may take while saturated; a run is
   * traced only while that stays within it, over and above the rate. The rate alone is a count:
   * on a machine where a traced run costs three times as much, it costs requests three times as
   * much. Default DEFAULT_SATURATED_BUDGET.
   */
  budget: number;
  /** Length of the window whose load decides the next one. */
  windowMs: number;
  /** Busy share of a window from which the thread counts as saturated. */
  saturatedAt: number;
  meter: LoadMeter;
  now: () => number;
  /** CPU time this process has used so far, in ms: what the budget is a share of. */
  cpu: () => number;
}

/** The process's CPU time so far (user and system), in ms; a getrusage call, read once a window. */
export function processCpuMs(): number {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1000;
}

export const DEFAULT_SATURATED_RATE = 1000;
/**
 * 1% of the process's CPU for tracing's measured work. What `charge` sees is a third to a half of
 * what tracing costs the thread: a traced run also builds its context and events, its records are
 * garbage later, and tracing's code and data are cold in the caches when runs between them are
 * not traced. Measured at once with the runtime alone (bench/http, one shared core): 3% of
 * measured work took 13–16% of req/s, 1% took 1–5%.
 */
export const DEFAULT_SATURATED_BUDGET = 0.01;
/**
 * Tracing time owed from which runs are no longer traced, as the CPU time over which the budget
 * pays it off (20 ms of tracing at 1%): more than a batch's store, which is charged in one go.
 */
const BUDGET_ALLOWANCE_MS = 2000;

/**
 * Whether a run is traced (and an http exchange captured): every one while the request thread has
 * time to spare; while it is saturated — busy for at least 90% of a window of 25 ms, so tracing
 * every run could only slow requests — at most `saturatedRate` a second (a token bucket holding
 * `burst`, so bursts below the rate pass whole), the rest counted in `shed` (a shed run that
 * fails still gets its run record: `keptAfterAll`), and, beyond the burst that saturation begins
 * with, only while tracing's measured work stays within `budget` of the process's CPU (`charge`).
 * Saturation ends after two windows in a row with time to spare, or a quiet spell: a request
 * arriving after the load is gone is traced at once, as the first call after a window's end
 * measures it. A call costs a clock read, and a
 * load reading once a window.
 */
export class TraceAdmission {
  /** Runs (and exchanges) not traced because the thread was saturated. */
  shed = 0;
  /** True from a saturated window until two windows in a row (or a long quiet spell) were not. */
  saturated = false;
  /** Called when a window turns saturated after one that was not (a log line, rate-limited by the caller). */
  onSaturated: (() => void) | undefined;
  /** Tracing time measured on this thread (`charge`), in ms, since the admission was made. */
  chargedMs = 0;
  private readonly opts: Omit<TraceAdmissionOptions, 'burst'>;
  /** The bucket's size: the option, else a quarter second of the rate (changing the rate changes it). */
  private readonly burstOption: number | undefined;
  private windowEnd: number;
  /** Runs that may still be traced while saturated: refilled at the rate, holding at most `burst`. */
  private tokens: number;
  private filledAt: number;
  /** Windows in a row with time to spare while still counted saturated. */
  private calm = 0;
  /** Measured tracing time not yet paid off: a leaky bucket drained by `budget` ms for every ms of CPU the process uses. */
  private debtMs = 0;
  /** Runs still traced whatever the debt: the bucket's worth as saturation begins, so a batch that size passes whole. */
  private exempt = 0;
  private cpuAt: number;

  constructor(options: Partial<TraceAdmissionOptions> = {}) {
    this.opts = {
      saturatedRate: options.saturatedRate ?? DEFAULT_SATURATED_RATE,
      budget: options.budget ?? DEFAULT_SATURATED_BUDGET,
      // Short, so a burst after idle is traced whole for at most 25 ms before its load is measured.
      windowMs: options.windowMs ?? 25,
      saturatedAt: options.saturatedAt ?? 0.9,
      meter: options.meter ?? eventLoopMeter(),
      now: options.now ?? (() => performance.now()),
      cpu: options.cpu ?? processCpuMs,
    };
    this.burstOption = options.burst;
    this.filledAt = this.opts.now();
    this.cpuAt = this.opts.cpu();
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

  /** The share of the process's CPU tracing may take while saturated. */
  get budget(): number {
    return this.opts.budget;
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
    if (this.tokens >= 1 && (this.exempt > 0 || this.debtMs <= BUDGET_ALLOWANCE_MS * this.opts.budget)) {
      this.tokens--;
      if (this.exempt > 0) this.exempt--;
      return true;
    }
    this.shed++;
    return false;
  }

  /**
   * Tracing work just done on this thread took `ms` (a sink's emit, a batch serialized or
   * stored): counted against the budget while saturated, and in `chargedMs` always.
   */
  charge(ms: number): void {
    this.chargedMs += ms;
    // With time to spare tracing costs requests nothing: only saturated time is owed.
    if (this.saturated) this.debtMs += ms;
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
    // Paid off by CPU time, not the clock's: a thread that shares its core (or loses it to steal
    // time) gets less of each second, and the budget is a share of what it gets.
    const cpu = this.opts.cpu();
    this.debtMs = Math.max(0, this.debtMs - (cpu - this.cpuAt) * this.opts.budget);
    this.cpuAt = cpu;
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
    if (this.saturated && !was) {
      // What the burst promises holds on a slow machine too; its cost is owed all the same, and paid off before the rate resumes.
      this.exempt = this.burst;
      if (saturatedRate !== Infinity) this.onSaturated?.();
    }
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

/**
 * Reads `FLOW_TRACE_SATURATED_BUDGET`: the percent of the process's CPU tracing's measured work
 * may take while saturated (`0.5` or `0.5%`), as a share (0.005); undefined when unset; a bad
 * value is an error naming it.
 */
export function saturatedBudgetFromEnv(env: Record<string, string | undefined>): number | undefined {
  const raw = env.FLOW_TRACE_SATURATED_BUDGET;
  if (raw === undefined || raw.trim() === '') return undefined;
  const percent = Number(/^\s*(\d+(?:\.\d+)?)\s*%?\s*$/.exec(raw)?.[1] ?? NaN);
  if (!(percent <= 100)) {
    throw new Error(`FLOW_TRACE_SATURATED_BUDGET must be a percent of the CPU from 0 to 100 (tracing's share while the request thread is saturated), e.g. 1 or 0.5%, got "${raw}"`);
  }
  return percent / 100;
}
