import { systemClock, type Clock, type ClockTimer } from '../../../shared/clock.ts';
import { ApiError } from '../http/api-error.ts';

interface Waiter<T> {
  take: () => Promise<T[]>;
  resolve: (items: T[]) => void;
  reject: (err: Error) => void;
  timer: ClockTimer;
  /** A take for this waiter is in flight: its window may close, but what it takes is still its answer. */
  taking: boolean;
  expired: boolean;
}

export interface PendingReceive<T> {
  /** The batch taken for this receive; empty when its wait window passed with nothing. */
  result: Promise<T[]>;
  /** Gives up waiting (the client went away); nothing is taken afterwards. */
  cancel(): void;
}

/**
 * Long polls, held in process. A receive that finds nothing waits under a key (a queue's
 * subject and consumer group, or a topic subscription) until something wakes the key: a
 * publish or a nack in this process, a wake-up from another replica, or a timer set for the
 * moment the next invisible message becomes visible again. Nothing polls the database; an idle
 * key with waiters costs a timer per waiter.
 *
 * Takes answer later (the store seam is asynchronous): one serve runs per key at a time, a wake
 * that arrives meanwhile makes it go round once more, and a wake between a receive's first
 * (empty) take and its registration is noticed by a per-key wake count, so no wake-up is lost.
 */
export class WaitingReceivers<T> {
  private readonly waiting = new Map<string, Array<Waiter<T>>>();
  private readonly wakeTimers = new Map<string, { at: number; timer: ClockTimer }>();
  private readonly wakeQueued = new Set<string>();
  private readonly serving = new Set<string>();
  private readonly serveAgain = new Set<string>();
  /** Keys whose next wake-up time is being read, and those to read again once it is. */
  private readonly arming = new Set<string>();
  private readonly armAgain = new Set<string>();
  /** Per key with a first take in flight: how many receives wait on it, and wakes seen meanwhile. */
  private readonly firstTakes = new Map<string, { receives: number; wakes: number }>();
  private closed = false;

  /** `nextWakeAt(key)` is when something under the key next becomes receivable without a publish. */
  constructor(
    private readonly nextWakeAt: (key: string) => Promise<number | undefined>,
    private readonly onError: (err: Error) => void = () => {},
    /** Long-poll windows and wake-ups (a nack delay ending) are timers on this clock. */
    private readonly clock: Clock = systemClock,
  ) {}

  receive(key: string, waitMs: number, take: () => Promise<T[]>): PendingReceive<T> {
    const first = take();
    let track = this.firstTakes.get(key);
    if (!track) this.firstTakes.set(key, (track = { receives: 0, wakes: 0 }));
    track.receives++;
    const wakesBefore = track.wakes;
    const settled = (): number => {
      const wakes = track.wakes;
      if (--track.receives === 0) this.firstTakes.delete(key);
      return wakes;
    };
    let cancelled = false;
    let waiting: PendingReceive<T> | undefined;
    const result = first.then(async (items) => {
      const wakesAfter = settled();
      if (items.length > 0 || waitMs <= 0 || cancelled) return items;
      // Woken while the first take was on its way: what woke us may not have been visible to it.
      if (wakesAfter !== wakesBefore) {
        const again = await take();
        if (again.length > 0 || cancelled) return again;
      }
      waiting = this.wait(key, waitMs, take);
      return waiting.result;
    }, (err: unknown) => {
      settled();
      throw err;
    });
    return {
      result,
      cancel: () => {
        cancelled = true;
        waiting?.cancel();
      },
    };
  }

  /** Something became receivable under the key; waiters take it before this tick ends. */
  wake(key: string): void {
    const track = this.firstTakes.get(key);
    if (track) track.wakes++;
    if (!this.waiting.has(key) || this.wakeQueued.has(key)) return;
    this.wakeQueued.add(key);
    queueMicrotask(() => {
      this.wakeQueued.delete(key);
      void this.serve(key);
    });
  }

  /** Ends every receive waiting under the key, empty (what they waited on is gone). */
  endAll(key: string): void {
    const list = this.waiting.get(key);
    if (!list) return;
    this.waiting.delete(key);
    this.clearWakeTimer(key);
    for (const w of list) {
      this.clock.clearTimeout(w.timer);
      w.resolve([]);
    }
  }

  has(key: string): boolean {
    return this.waiting.has(key);
  }

  /** Keys with a receive waiting now. */
  keys(): ReadonlySet<string> {
    return new Set(this.waiting.keys());
  }

  get size(): number {
    let n = 0;
    for (const list of this.waiting.values()) n += list.length;
    return n;
  }

  /** Answers every waiting receive with 503 and refuses new waits: the server is stopping. */
  close(): void {
    this.closed = true;
    for (const [key, list] of this.waiting) {
      for (const w of list) {
        this.clock.clearTimeout(w.timer);
        w.reject(shuttingDown());
      }
      this.clearWakeTimer(key);
    }
    this.waiting.clear();
  }

  private wait(key: string, waitMs: number, take: () => Promise<T[]>): PendingReceive<T> {
    if (this.closed) return { result: Promise.reject(shuttingDown()), cancel: () => {} };
    let waiter!: Waiter<T>;
    const result = new Promise<T[]>((resolve, reject) => {
      const timer = this.clock.setTimeout(() => {
        if (waiter.taking) {
          waiter.expired = true;
          return;
        }
        this.remove(key, waiter);
        resolve([]);
      }, waitMs);
      waiter = { take, resolve, reject, timer, taking: false, expired: false };
    });
    const list = this.waiting.get(key);
    if (list) list.push(waiter);
    else this.waiting.set(key, [waiter]);
    void this.armWakeTimer(key);
    return { result, cancel: () => this.remove(key, waiter) };
  }

  private async serve(key: string): Promise<void> {
    if (this.serving.has(key)) {
      this.serveAgain.add(key);
      return;
    }
    this.serving.add(key);
    try {
      do {
        this.serveAgain.delete(key);
        const list = this.waiting.get(key);
        while (list && list.length > 0) {
          const w = list[0];
          let items: T[];
          w.taking = true;
          try {
            items = await w.take();
          } catch (err) {
            w.taking = false;
            this.remove(key, w);
            w.reject(err as Error);
            continue;
          }
          w.taking = false;
          if (items.length === 0) {
            if (w.expired) {
              this.remove(key, w);
              w.resolve([]);
              continue;
            }
            break;
          }
          this.remove(key, w);
          w.resolve(items);
        }
      } while (this.serveAgain.has(key));
    } catch (err) {
      this.onError(err as Error);
    } finally {
      this.serving.delete(key);
    }
    if (this.waiting.has(key)) await this.armWakeTimer(key);
  }

  private remove(key: string, waiter: Waiter<T>): void {
    this.clock.clearTimeout(waiter.timer);
    const list = this.waiting.get(key);
    if (!list) return;
    const i = list.indexOf(waiter);
    if (i !== -1) list.splice(i, 1);
    if (list.length === 0) {
      this.waiting.delete(key);
      this.clearWakeTimer(key);
    }
  }

  /**
   * Sets the key's timer for when something next becomes receivable there. Asks made while one
   * is on its way (waiters registering at once) share it, plus one more ask after it for any
   * change it may have missed: a burst of receives costs the store two reads, not one each.
   */
  private async armWakeTimer(key: string): Promise<void> {
    if (this.arming.has(key)) {
      this.armAgain.add(key);
      return;
    }
    this.arming.add(key);
    try {
      do {
        this.armAgain.delete(key);
        await this.armWakeTimerNow(key);
      } while (this.armAgain.has(key) && this.waiting.has(key));
    } finally {
      this.arming.delete(key);
      this.armAgain.delete(key);
    }
  }

  private async armWakeTimerNow(key: string): Promise<void> {
    let at: number | undefined;
    try {
      at = await this.nextWakeAt(key);
    } catch (err) {
      this.onError(err as Error);
      return;
    }
    if (at === undefined || !this.waiting.has(key)) return;
    const existing = this.wakeTimers.get(key);
    if (existing && existing.at <= at) return;
    if (existing) this.clock.clearTimeout(existing.timer);
    const timer = this.clock.setTimeout(
      () => {
        this.wakeTimers.delete(key);
        void this.serve(key);
      },
      Math.max(0, at - this.clock.now()) + 1,
    );
    this.wakeTimers.set(key, { at, timer });
  }

  private clearWakeTimer(key: string): void {
    const existing = this.wakeTimers.get(key);
    if (!existing) return;
    this.clock.clearTimeout(existing.timer);
    this.wakeTimers.delete(key);
  }
}

function shuttingDown(): ApiError {
  return new ApiError(503, 'shutting_down', 'the platform server is shutting down; retry against its next start');
}
