import type { HistoryWindow } from '../../../shared/platform-views.ts';

export interface HistoryLimits {
  /** Events older than this are dropped. */
  minutes: number;
  /** Events kept at most, whatever their age: at high rates the window covers less than `minutes`. */
  maxEvents: number;
}

export interface Recorded {
  seq: number;
  at: number;
}

/**
 * The recent events of one view, oldest first, bounded by age and by count, so a view can show
 * what led up to any moment of the last N minutes. Appends are O(1); dropping the front is
 * amortized by compacting once a block of dead slots has built up.
 */
export class EventHistory<T extends Recorded> {
  private items: T[] = [];
  private head = 0;
  private nextSeq = 1;

  constructor(private readonly limits: HistoryLimits) {}

  /** Records an event, numbering it; returns it. */
  push(event: Omit<T, 'seq'>): T {
    const recorded = { ...event, seq: this.nextSeq++ } as T;
    this.items.push(recorded);
    if (this.items.length - this.head > this.limits.maxEvents) this.head++;
    this.compact();
    return recorded;
  }

  /** Drops what fell out of the time window. */
  prune(now: number): void {
    const oldest = now - this.limits.minutes * 60_000;
    while (this.head < this.items.length && this.items[this.head].at < oldest) this.head++;
    this.compact();
  }

  get size(): number {
    return this.items.length - this.head;
  }

  /** Number of the last event recorded (0 before the first). */
  get lastSeq(): number {
    return this.nextSeq - 1;
  }

  /** The window this history covers, for the scrubber. */
  window(now: number): HistoryWindow {
    const configured = now - this.limits.minutes * 60_000;
    const full = this.size >= this.limits.maxEvents;
    const first = this.items[this.head]?.at;
    return { minutes: this.limits.minutes, from: full && first !== undefined ? Math.max(first, configured) : configured, to: now };
  }

  /** The newest `limit` events at or before `at` that match, oldest first. */
  newest(limit: number, at: number | undefined, matches: (e: T) => boolean): T[] {
    const out: T[] = [];
    for (let i = this.items.length - 1; i >= this.head && out.length < limit; i--) {
      const e = this.items[i];
      if (at !== undefined && e.at > at) continue;
      if (matches(e)) out.push(e);
    }
    return out.reverse();
  }

  /** Events after event number `seq` up to the moment `at`, oldest first. */
  between(seq: number, at: number): T[] {
    const out: T[] = [];
    for (let i = this.items.length - 1; i >= this.head && this.items[i].seq > seq; i--) if (this.items[i].at <= at) out.push(this.items[i]);
    return out.reverse();
  }

  /** Every event that matches, oldest first (a scan; for occasional lookups). */
  all(matches: (e: T) => boolean): T[] {
    const out: T[] = [];
    for (let i = this.head; i < this.items.length; i++) if (matches(this.items[i])) out.push(this.items[i]);
    return out;
  }

  private compact(): void {
    if (this.head > 4096 && this.head * 2 > this.items.length) {
      this.items = this.items.slice(this.head);
      this.head = 0;
    }
  }
}

/** A view's state at a moment, and the number of the last event it includes. */
export interface Snapshot<T> {
  at: number;
  seq: number;
  value: T;
}

/**
 * Periodic snapshots of a view's state (counters, holders, subscriptions), one per tick and only
 * when it changed. Scrubbing to a moment starts from the last snapshot before it and replays the
 * events in between, so the state shown is that of the moment, not of the tick.
 */
export class SnapshotHistory<T> {
  private readonly times: number[] = [];
  private readonly values: Array<Snapshot<T>> = [];
  private lastKey: string | undefined;

  constructor(private readonly limits: HistoryLimits) {}

  record(at: number, seq: number, value: T, key: string): void {
    if (key === this.lastKey && this.times.length > 0) return;
    this.lastKey = key;
    this.times.push(at);
    this.values.push({ at, seq, value });
    const oldest = at - this.limits.minutes * 60_000;
    // Keep the newest snapshot older than the window: it is the state at the window's start.
    let drop = 0;
    while (drop + 1 < this.times.length && this.times[drop + 1] <= oldest) drop++;
    if (this.times.length - drop > this.limits.maxEvents) drop = this.times.length - this.limits.maxEvents;
    if (drop > 0) {
      this.times.splice(0, drop);
      this.values.splice(0, drop);
    }
  }

  /** The last snapshot taken at or before `at`. */
  at(at: number): Snapshot<T> | undefined {
    let lo = 0;
    let hi = this.times.length - 1;
    let found = -1;
    while (lo <= hi) {
      const mid = (lo + hi) >> 1;
      if (this.times[mid] <= at) {
        found = mid;
        lo = mid + 1;
      } else hi = mid - 1;
    }
    return found === -1 ? undefined : this.values[found];
  }
}
