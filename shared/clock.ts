/**
 * Time as a dependency. The platform's stores and delegation routes and the runtime's timers read
 * the time and set timers through a `Clock`, so a TTL, a deadline or a backoff can be tested by
 * moving time instead of waiting for it (as Temporal's test server skips time), and a flow test
 * can run minutes of timers in milliseconds. Production code takes `systemClock`.
 */

declare const clockTimerBrand: unique symbol;
/** A timer a clock set; hand it back to the same clock's `clearTimeout`. */
export type ClockTimer = { readonly [clockTimerBrand]: true };

export interface Clock {
  /** Milliseconds since the Unix epoch, as `Date.now()`. */
  now(): number;
  /** Calls `fn` once `ms` have passed on this clock. `unref`: the timer does not keep a Node process alive. */
  setTimeout(fn: () => void, ms: number, options?: { unref?: boolean }): ClockTimer;
  clearTimeout(timer: ClockTimer | undefined): void;
}

/**
 * The real clock. It reads the globals at each call, so vitest's fake timers
 * (`vi.useFakeTimers()`) move it too.
 */
export const systemClock: Clock = {
  now: () => Date.now(),
  setTimeout: (fn, ms, options) => {
    const timer = setTimeout(fn, ms);
    if (options?.unref) (timer as { unref?: () => void }).unref?.();
    return timer as unknown as ClockTimer;
  },
  clearTimeout: (timer) => clearTimeout(timer as unknown as ReturnType<typeof setTimeout>),
};

/** Resolves after `ms` on `clock`, or at once (rejecting with the signal's reason) when `signal` aborts. */
export function sleepOn(clock: Clock, ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const onAbort = (): void => {
      clock.clearTimeout(timer);
      reject(signal!.reason);
    };
    const timer = clock.setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}

interface ManualTimer {
  due: number;
  seq: number;
  fn: () => void;
}

/**
 * A clock that moves only when told. Timers fire in due order (ties in the order they were set)
 * while `advance` moves through them, each at its own due time, so what a timer starts (a promise
 * chain, a request on loopback) can run before the next one fires.
 */
export class ManualClock implements Clock {
  private t: number;
  private seq = 0;
  private readonly timers = new Map<ClockTimer, ManualTimer>();
  private readonly listeners = new Set<() => void>();

  constructor(start: number = Date.now()) {
    this.t = start;
  }

  now(): number {
    return this.t;
  }

  setTimeout(fn: () => void, ms: number): ClockTimer {
    const handle = {} as ClockTimer;
    this.timers.set(handle, { due: this.t + Math.max(0, Number.isFinite(ms) ? ms : 0), seq: this.seq++, fn });
    this.changed();
    return handle;
  }

  clearTimeout(timer: ClockTimer | undefined): void {
    if (timer !== undefined && this.timers.delete(timer)) this.changed();
  }

  /** When the next timer is due, if any is set. */
  nextDue(): number | undefined {
    return this.next()?.[1].due;
  }

  /** Timers set and not yet fired. */
  get pending(): number {
    return this.timers.size;
  }

  /** Told of every timer set, cleared or fired: how a driver knows the code under it is still busy. */
  onChange(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /**
   * Moves time forward by `ms`, firing each timer due on the way at its due time. Between two
   * timers it awaits `settle` (by default one turn of the real event loop), so work a timer
   * started runs before the next timer fires.
   */
  async advance(ms: number, settle: () => Promise<void> = realTurn): Promise<void> {
    const end = this.t + ms;
    // Timers being set by work still under way (a promise chain a request started) go first.
    await settle();
    for (let next = this.next(); next && next[1].due <= end; next = this.next()) {
      this.fire(next);
      await settle();
    }
    this.t = Math.max(this.t, end);
  }

  /**
   * Moves the clock by itself, as Temporal's test server skips time: whenever the code under it
   * has gone quiet (no timer set, cleared or fired while the event loop sat idle for `quietMs`,
   * long enough for a loopback request to come back and set its next timer), it jumps to the
   * next timer due and fires it, until nothing is due before `end`; then it stands at `end`. What
   * a timer starts runs in real time before the next jump, so events happen in the order of their
   * due times. `touch()` tells it of other activity (a request answered, a step finished): quiet
   * starts over.
   *
   * Quiet is counted in time the event loop spent idle, not in wall time: on a loaded machine a
   * request to a server in this process can take longer than `quietMs` to come back, but while
   * its answer is there to be read the loop is busy, not idle, so the clock does not run ahead.
   */
  drive(end: number, quietMs = 40): { stop(): Promise<void>; touch(): void } {
    let changedAt = idleTime();
    const unsubscribe = this.onChange(() => (changedAt = idleTime()));
    let running = true;
    const loop = (async () => {
      while (running) {
        await new Promise((resolve) => setTimeout(resolve, quietMs / 4));
        if (!running || idleTime() - changedAt < quietMs) continue;
        const due = this.nextDue();
        if (due !== undefined && due <= end) this.fireNext();
        else if (this.t < end) this.t = end;
      }
    })();
    return {
      stop: async () => {
        running = false;
        await loop;
        unsubscribe();
      },
      touch: () => {
        changedAt = idleTime();
      },
    };
  }

  /** Fires the next timer (moving time to its due time, never backwards); false when none is set. */
  fireNext(): boolean {
    const next = this.next();
    if (!next) return false;
    this.fire(next);
    return true;
  }

  private fire([handle, timer]: [ClockTimer, ManualTimer]): void {
    this.timers.delete(handle);
    this.t = Math.max(this.t, timer.due);
    this.changed();
    timer.fn();
  }

  private next(): [ClockTimer, ManualTimer] | undefined {
    let found: [ClockTimer, ManualTimer] | undefined;
    for (const entry of this.timers) {
      if (!found || entry[1].due < found[1].due || (entry[1].due === found[1].due && entry[1].seq < found[1].seq)) found = entry;
    }
    return found;
  }

  private changed(): void {
    for (const listener of this.listeners) listener();
  }
}

/**
 * Milliseconds the event loop has spent idle (waiting with nothing to run) since the process
 * started, where the runtime measures it (Node's `performance.eventLoopUtilization`); elsewhere
 * wall time.
 */
function idleTime(): number {
  const p = performance as Performance & { eventLoopUtilization?: () => { idle: number } };
  return p.eventLoopUtilization ? p.eventLoopUtilization().idle : performance.now();
}

/** One turn of the real event loop: pending I/O callbacks and promise jobs run. */
function realTurn(): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, 0));
}
