import { noneNotRecorded, notRecordedFields, type FeedBatch, type FeedEvent, type NotRecordedKind } from '../../shared/feed-events.ts';

/** How often drop counters are read when no event brings a batch. */
const COUNTER_POLL_MS = 500;

/**
 * Something that produces feed events while attached: a runtime's traces, the platform's traffic.
 * `batch()` numbers the batch an event pushed now goes out in, so a source can change its own
 * events until their batch leaves.
 */
export type FeedSource = (push: (event: FeedEvent) => void, batch: () => number) => () => void;

export interface LiveFeedOptions {
  /** Minimum time between two batches. */
  flushMs?: number;
  /** Events held between batches; beyond it events are counted as dropped. */
  maxBuffered?: number;
}

/**
 * Collects events from its sources and delivers them to subscribers in batches, at most every
 * `flushMs`. Sources are attached only while someone subscribes, so with no window open nothing
 * is traced or collected; the buffer is bounded and what does not fit is counted, not kept.
 */
export class LiveFeed {
  private readonly flushMs: number;
  private readonly maxBuffered: number;
  private readonly sources = new Map<FeedSource, (() => void) | undefined>();
  private readonly subscribers = new Set<(batch: FeedBatch) => void>();
  private buffer: FeedEvent[] = [];
  private dropped = 0;
  private timer: NodeJS.Timeout | undefined;
  /** Reads the drop counters while someone listens: what a runtime did not record arrives with no event to carry it. */
  private counterPoll: NodeJS.Timeout | undefined;
  private lastFlush = 0;
  /** Batches delivered so far: events pushed now go out in batch number `flushes`. */
  private flushes = 0;
  private readonly batchNumber = (): number => this.flushes;
  /** Each counter's total at the last batch, so a batch carries what was dropped since. */
  private readonly dropCounters = new Map<() => number, { seen: number; what: NotRecordedKind }>();

  constructor(options: LiveFeedOptions = {}) {
    this.flushMs = options.flushMs ?? 50;
    this.maxBuffered = options.maxBuffered ?? 5_000;
  }

  get listening(): boolean {
    return this.subscribers.size > 0;
  }

  /** Registers a source; it is attached now if someone listens, else when someone starts to. */
  addSource(source: FeedSource): () => void {
    this.sources.set(source, this.listening ? source(this.push, this.batchNumber) : undefined);
    return () => {
      this.sources.get(source)?.();
      this.sources.delete(source);
    };
  }

  /**
   * Registers a running total of what a runtime did not record: trace records its export dropped
   * (`tracesDropped`), or runs it left untraced while saturated (`runsNotTraced`). Each batch
   * then carries how many more since the previous one.
   */
  addDropCounter(read: () => number, what: NotRecordedKind = 'tracesDropped'): () => void {
    this.dropCounters.set(read, { seen: read(), what });
    return () => void this.dropCounters.delete(read);
  }

  subscribe(listener: (batch: FeedBatch) => void): () => void {
    const first = this.subscribers.size === 0;
    this.subscribers.add(listener);
    if (first) {
      for (const source of this.sources.keys()) this.sources.set(source, source(this.push, this.batchNumber));
      this.counterPoll = setInterval(() => {
        if (!this.timer && this.dropCounters.size > 0) this.flush();
      }, COUNTER_POLL_MS);
      this.counterPoll.unref();
    }
    return () => {
      if (!this.subscribers.delete(listener) || this.subscribers.size > 0) return;
      for (const [source, detach] of this.sources) {
        detach?.();
        this.sources.set(source, undefined);
      }
      this.buffer = [];
      this.dropped = 0;
      if (this.timer) clearTimeout(this.timer);
      this.timer = undefined;
      clearInterval(this.counterPoll);
    };
  }

  /** Adds one event; a no-op while nobody listens. */
  readonly push = (event: FeedEvent): void => {
    if (this.subscribers.size === 0) return;
    if (this.buffer.length >= this.maxBuffered) this.dropped++;
    else this.buffer.push(event);
    if (!this.timer) {
      const wait = Math.max(0, this.lastFlush + this.flushMs - Date.now());
      this.timer = setTimeout(this.flush, wait);
    }
  };

  close(): void {
    for (const detach of this.sources.values()) detach?.();
    this.sources.clear();
    this.subscribers.clear();
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    clearInterval(this.counterPoll);
  }

  private readonly flush = (): void => {
    this.timer = undefined;
    this.lastFlush = Date.now();
    this.flushes++;
    const since = noneNotRecorded();
    for (const [read, counter] of this.dropCounters) {
      const total = read();
      if (total > counter.seen) since[counter.what] += total - counter.seen;
      counter.seen = total;
    }
    const notRecorded = notRecordedFields(since);
    if (this.buffer.length === 0 && this.dropped === 0 && Object.keys(notRecorded).length === 0) return;
    const batch: FeedBatch = { events: this.buffer, dropped: this.dropped, ...notRecorded };
    this.buffer = [];
    this.dropped = 0;
    for (const s of this.subscribers) {
      try {
        s(batch);
      } catch {
        // One broken window must not stop the others from getting the feed.
      }
    }
  };
}
