import type { HistoryWindow } from '../../../shared/platform-views.ts';
import type { PlatformEvent, PlatformInspection, QueueGroupCounts } from '../../platform/index.ts';
import { type TraceHub } from '../../runtime/index.ts';
import type { HistoryLimits } from './event-history.ts';
import { KvActivity } from './kv-activity.ts';
import { LeaseActivity } from './lease-activity.ts';
import { QueueTraffic } from './queue-traffic.ts';
import { RunLinks } from './run-links.ts';
import { TopicTraffic, type TopicState } from './topic-traffic.ts';

/** What the views need of the platform: its store, in process, and its live events. */
export interface PlatformViewsSource {
  inspect: PlatformInspection;
  subscribe(listener: (event: PlatformEvent) => void): () => void;
}

export interface PlatformViewsOptions {
  /** Minutes of events kept for scrubbing back; default 15. */
  historyMinutes?: number;
  /** Snapshot interval; default 1 s. */
  tickMs?: number;
}

/** Bounds of history: the time window is shared and configurable; counts are per view. */
const MAX_EVENTS = { queue: 100_000, topic: 50_000, kv: 50_000, lease: 20_000, snapshots: 7_200 };
export const HISTORY_MINUTES = { default: 15, min: 1, max: 120 };
/** Counting stored queue messages is a scan; once it takes over SLOW_COUNT_MS it runs at most this share of the time. */
const GAUGE_BUDGET = 0.05;
const SLOW_COUNT_MS = 50;

/**
 * The state behind the Queues & Topics and Storage panels: it listens to every platform event
 * from the start (so history covers what happened before a window opened), follows the runs of
 * the studio's runtimes to link messages and writes to them, and snapshots the stored state every
 * second for scrubbing back.
 */
export class PlatformViewsState {
  readonly links = new RunLinks();
  readonly queues: QueueTraffic;
  readonly topics: TopicTraffic;
  readonly kv: KvActivity;
  readonly leases: LeaseActivity;
  private readonly window = { minutes: HISTORY_MINUTES.default };
  private readonly stop: () => void;
  private readonly timer: NodeJS.Timeout;
  private gauges: { at: number; rows: QueueGroupCounts[]; costMs: number } = { at: 0, rows: [], costMs: 0 };
  private ticking = false;

  constructor(
    readonly inspect: PlatformInspection,
    subscribe: PlatformViewsSource['subscribe'],
    options: PlatformViewsOptions = {},
  ) {
    this.window.minutes = clampMinutes(options.historyMinutes ?? HISTORY_MINUTES.default);
    const limits = (maxEvents: number): HistoryLimits => {
      const window = this.window;
      return {
        get minutes() {
          return window.minutes;
        },
        maxEvents,
      };
    };
    const snapshots = limits(MAX_EVENTS.snapshots);
    this.queues = new QueueTraffic({ limits: limits(MAX_EVENTS.queue), snapshotLimits: snapshots, links: this.links });
    this.topics = new TopicTraffic({ limits: limits(MAX_EVENTS.topic), snapshotLimits: snapshots, links: this.links });
    this.kv = new KvActivity(limits(MAX_EVENTS.kv), this.links);
    this.leases = new LeaseActivity(limits(MAX_EVENTS.lease), snapshots, this.links);
    this.stop = subscribe((e) => this.handle(e));
    this.timer = setInterval(() => this.tick(), options.tickMs ?? 1000);
    this.timer.unref();
    this.tick();
  }

  /** Follows a runtime's runs to link messages, writes and leases to them. */
  watchRuntime(integration: string, traces: TraceHub): () => void {
    return this.links.watch(integration, traces);
  }

  get historyMinutes(): number {
    return this.window.minutes;
  }

  setHistoryMinutes(minutes: number): HistoryWindow {
    this.window.minutes = clampMinutes(minutes);
    this.prune(Date.now());
    return this.queues.history.window(Date.now());
  }

  /**
   * Stored queue counts now, unless counting has become slow (a backlog of many thousand
   * messages): then the last count, refreshed so counting takes at most a small share of the time.
   */
  async queueGauges(now = Date.now()): Promise<QueueGroupCounts[]> {
    const g = this.gauges;
    if (g.costMs > SLOW_COUNT_MS && now - g.at < g.costMs / GAUGE_BUDGET) return g.rows;
    const t0 = performance.now();
    const rows = await this.inspect.queues.counts(now);
    // Smoothed, so one slow count (a cold cache, a busy moment) does not make the counts stale.
    const costMs = g.at === 0 ? performance.now() - t0 : 0.7 * g.costMs + 0.3 * (performance.now() - t0);
    this.gauges = { at: now, rows, costMs };
    return rows;
  }

  async topicState(now = Date.now()): Promise<TopicState> {
    return { streams: await this.inspect.topics.streams(), subscriptions: await this.inspect.topics.subscriptions(now) };
  }

  /**
   * Runs `write` with the view marking the events it causes as the studio's own, until it
   * settles. (An event another source causes meanwhile would be marked too; on the embedded
   * store the writes settle in the same turn.)
   */
  async asStudio<T>(view: { fromStudio: boolean }, write: () => Promise<T>): Promise<T> {
    view.fromStudio = true;
    try {
      return await write();
    } finally {
      view.fromStudio = false;
    }
  }

  close(): void {
    clearInterval(this.timer);
    this.stop();
  }

  private handle(e: PlatformEvent): void {
    switch (e.type.slice(0, e.type.indexOf('.'))) {
      case 'queue':
        return this.queues.handle(e as Parameters<QueueTraffic['handle']>[0]);
      case 'topic':
        return this.topics.handle(e as Parameters<TopicTraffic['handle']>[0]);
      case 'kv':
        return this.kv.handle(e as Parameters<KvActivity['handle']>[0]);
      case 'lease':
        return this.leases.handle(e as Parameters<LeaseActivity['handle']>[0]);
    }
  }

  private tick(): void {
    if (this.ticking) return;
    this.ticking = true;
    const now = Date.now();
    this.prune(now);
    void (async () => {
      this.queues.snapshot(now, await this.queueGauges(now));
      this.topics.snapshot(now, await this.topicState(now));
      this.leases.tick(now, await this.inspect.leases.claims());
    })()
      .catch(() => {
        // The platform is closing (its database is gone); the next tick, if any, tries again.
      })
      .finally(() => (this.ticking = false));
  }

  private prune(now: number): void {
    this.queues.history.prune(now);
    this.topics.history.prune(now);
    this.kv.history.prune(now);
    this.leases.history.prune(now);
  }
}

function clampMinutes(minutes: number): number {
  if (!Number.isFinite(minutes)) return HISTORY_MINUTES.default;
  return Math.min(HISTORY_MINUTES.max, Math.max(HISTORY_MINUTES.min, Math.round(minutes)));
}
