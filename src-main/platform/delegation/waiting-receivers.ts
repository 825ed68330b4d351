import { ApiError } from '../http/api-error.ts';

interface Waiter<T> {
  take: () => T[];
  resolve: (items: T[]) => void;
  reject: (err: Error) => void;
  timer: NodeJS.Timeout;
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
 * publish, a nack, or a timer set for the moment the next invisible message becomes visible
 * again. Nothing polls the database; an idle key with waiters costs a timer per waiter.
 */
export class WaitingReceivers<T> {
  private readonly waiting = new Map<string, Array<Waiter<T>>>();
  private readonly wakeTimers = new Map<string, { at: number; timer: NodeJS.Timeout }>();
  private readonly wakeQueued = new Set<string>();
  private closed = false;

  /** `nextWakeAt(key)` is when something under the key next becomes receivable without a publish. */
  constructor(private readonly nextWakeAt: (key: string) => number | undefined) {}

  receive(key: string, waitMs: number, take: () => T[]): PendingReceive<T> {
    const first = take();
    if (first.length > 0 || waitMs <= 0) return { result: Promise.resolve(first), cancel: () => {} };
    if (this.closed) return { result: Promise.reject(shuttingDown()), cancel: () => {} };
    let waiter!: Waiter<T>;
    const result = new Promise<T[]>((resolve, reject) => {
      const timer = setTimeout(() => {
        this.remove(key, waiter);
        resolve([]);
      }, waitMs);
      waiter = { take, resolve, reject, timer };
    });
    const list = this.waiting.get(key);
    if (list) list.push(waiter);
    else this.waiting.set(key, [waiter]);
    this.armWakeTimer(key);
    return { result, cancel: () => this.remove(key, waiter) };
  }

  /** Something became receivable under the key; waiters take it before this tick ends. */
  wake(key: string): void {
    if (!this.waiting.has(key) || this.wakeQueued.has(key)) return;
    this.wakeQueued.add(key);
    queueMicrotask(() => {
      this.wakeQueued.delete(key);
      this.serve(key);
    });
  }

  /** Ends every receive waiting under the key, empty (what they waited on is gone). */
  endAll(key: string): void {
    const list = this.waiting.get(key);
    if (!list) return;
    this.waiting.delete(key);
    this.clearWakeTimer(key);
    for (const w of list) {
      clearTimeout(w.timer);
      w.resolve([]);
    }
  }

  has(key: string): boolean {
    return this.waiting.has(key);
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
        clearTimeout(w.timer);
        w.reject(shuttingDown());
      }
      this.clearWakeTimer(key);
    }
    this.waiting.clear();
  }

  private serve(key: string): void {
    const list = this.waiting.get(key);
    if (!list) return;
    while (list.length > 0) {
      const items = list[0].take();
      if (items.length === 0) break;
      const w = list.shift()!;
      clearTimeout(w.timer);
      w.resolve(items);
    }
    if (list.length === 0) {
      this.waiting.delete(key);
      this.clearWakeTimer(key);
    } else {
      this.armWakeTimer(key);
    }
  }

  private remove(key: string, waiter: Waiter<T>): void {
    clearTimeout(waiter.timer);
    const list = this.waiting.get(key);
    if (!list) return;
    const i = list.indexOf(waiter);
    if (i !== -1) list.splice(i, 1);
    if (list.length === 0) {
      this.waiting.delete(key);
      this.clearWakeTimer(key);
    }
  }

  private armWakeTimer(key: string): void {
    const at = this.nextWakeAt(key);
    if (at === undefined) return;
    const existing = this.wakeTimers.get(key);
    if (existing && existing.at <= at) return;
    if (existing) clearTimeout(existing.timer);
    const timer = setTimeout(
      () => {
        this.wakeTimers.delete(key);
        this.serve(key);
      },
      Math.max(0, at - Date.now()) + 1,
    );
    this.wakeTimers.set(key, { at, timer });
  }

  private clearWakeTimer(key: string): void {
    const existing = this.wakeTimers.get(key);
    if (!existing) return;
    clearTimeout(existing.timer);
    this.wakeTimers.delete(key);
  }
}

function shuttingDown(): ApiError {
  return new ApiError(503, 'shutting_down', 'the platform server is shutting down; retry against its next start');
}
