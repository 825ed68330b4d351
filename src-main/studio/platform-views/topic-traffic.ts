import type { HistoryWindow, TopicStreamStats, TopicSubscriptionInfo, TopicTimelineEvent, TopicViewQuery } from '../../../shared/platform-views.ts';
import type { PlatformEvent, SubscriptionState, TopicStreamCounts } from '../../platform/index.ts';
import { EventHistory, SnapshotHistory, type HistoryLimits } from './event-history.ts';
import { CORRELATION_HEADER } from './queue-traffic.ts';
import type { RunLinks } from './run-links.ts';
import { previewJson } from './value-preview.ts';
import { BoundedMap } from '../../../shared/bounded-map.ts';

type TopicRecord = Omit<TopicTimelineEvent, 'run'>;
type TopicPlatformEvent = Extract<PlatformEvent, { type: `topic.${string}` }>;

/** What the store holds for topics at one moment. */
export interface TopicState {
  streams: TopicStreamCounts[];
  subscriptions: SubscriptionState[];
}

const BODY_CHARS = 300;
const DEFAULT_LIMIT = 300;

export interface TopicTrafficOptions {
  limits: HistoryLimits;
  snapshotLimits: HistoryLimits;
  links: RunLinks;
}

/**
 * Topic traffic as the studio shows it: per stream the messages published and delivered since the
 * studio started, its subscriptions (cursor, lag, last receive, expiry), a bounded timeline, and
 * per-second snapshots for scrubbing back.
 */
export class TopicTraffic {
  readonly history: EventHistory<TopicRecord>;
  private readonly snapshots: SnapshotHistory<TopicStreamStats[]>;
  private readonly counters = new Map<string, { plane: string; subject: string; published: number; delivered: number }>();
  /** Correlation ids and times of recent publishes, to follow them to the runs they start. */
  private readonly correlations = new BoundedMap<string, string>(50_000, (messageId) => this.published.delete(messageId));
  private readonly published = new Map<string, number>();
  fromStudio = false;

  constructor(private readonly o: TopicTrafficOptions) {
    this.history = new EventHistory(o.limits);
    this.snapshots = new SnapshotHistory(o.snapshotLimits);
  }

  handle(e: TopicPlatformEvent): void {
    const base = { at: e.at, plane: e.plane, subject: e.subject };
    switch (e.type) {
      case 'topic.publish': {
        this.count(e.plane, e.subject).published++;
        const correlationId = e.headers[CORRELATION_HEADER];
        if (correlationId) {
          this.correlations.set(e.messageId, correlationId);
          this.published.set(e.messageId, e.at);
        }
        this.history.push({
          ...base,
          action: 'publish',
          messageId: e.messageId,
          body: previewJson(e.body, BODY_CHARS),
          ...(correlationId ? { correlationId } : {}),
          ...(this.fromStudio ? { fromStudio: true } : {}),
        });
        return;
      }
      case 'topic.deliver': {
        this.count(e.plane, e.subject).delivered += e.messageIds.length;
        const correlationId = e.messageIds.length === 1 ? this.correlations.get(e.messageIds[0]) : undefined;
        this.history.push({ ...base, action: 'deliver', subscriptionId: e.subscriptionId, messageIds: e.messageIds, ...(correlationId ? { correlationId } : {}) });
        return;
      }
      case 'topic.ack':
        this.history.push({ ...base, action: 'ack', subscriptionId: e.subscriptionId, cursor: e.cursor });
        return;
      default:
        this.history.push({ ...base, action: e.type.slice('topic.'.length) as TopicRecord['action'], subscriptionId: e.subscriptionId });
    }
  }

  stats(state: TopicState): TopicStreamStats[] {
    const out = new Map<string, TopicStreamStats>();
    const row = (plane: string, subject: string): TopicStreamStats => {
      const k = key(plane, subject);
      let r = out.get(k);
      if (!r) out.set(k, (r = { plane, subject, published: 0, delivered: 0, stored: 0, subscriptions: [] }));
      return r;
    };
    for (const c of this.counters.values()) Object.assign(row(c.plane, c.subject), { published: c.published, delivered: c.delivered });
    for (const s of state.streams) row(s.plane, s.subject).stored = s.stored;
    for (const s of state.subscriptions) row(s.plane, s.subject).subscriptions.push(subscriptionInfo(s));
    return [...out.values()].sort((a, b) => a.plane.localeCompare(b.plane) || a.subject.localeCompare(b.subject));
  }

  snapshot(at: number, state: TopicState): void {
    const stats = this.stats(state);
    // Expiry moves with every receive; the key leaves it out so an idle stream takes no new snapshot.
    this.snapshots.record(at, this.history.lastSeq, stats, JSON.stringify(stats, (k, v) => (k === 'expiresAt' || k === 'lastActiveAt' ? undefined : v)));
  }

  view(query: TopicViewQuery, state: () => TopicState, now: number): { at: number; live: boolean; streams: TopicStreamStats[]; timeline: TopicTimelineEvent[]; history: HistoryWindow } {
    const live = query.at == null || query.at >= now;
    const at = live ? now : query.at!;
    const streams = live ? this.stats(state()) : (this.snapshots.at(at)?.value ?? []);
    const limit = Math.min(Math.max(1, query.limit ?? DEFAULT_LIMIT), 2000);
    const plane = query.plane ?? undefined;
    const subject = query.subject ?? undefined;
    const events =
      subject === undefined ? [] : this.history.newest(limit, live ? undefined : at, (e) => e.subject === subject && (plane === undefined || e.plane === plane));
    return { at, live, streams, timeline: events.map((e) => this.withRun(e)), history: this.history.window(now) };
  }

  private withRun(e: TopicRecord): TopicTimelineEvent {
    const links = this.o.links;
    const publishedAt = e.messageIds?.length === 1 ? this.published.get(e.messageIds[0]) : undefined;
    const run =
      e.action === 'publish'
        ? links.producer(e.correlationId, e.at)
        : e.action === 'deliver' && publishedAt !== undefined
          ? links.consumerAfter(e.correlationId, undefined, e.at, publishedAt)
          : undefined;
    return run ? { ...e, run } : e;
  }

  private count(plane: string, subject: string) {
    const k = key(plane, subject);
    let c = this.counters.get(k);
    if (!c) this.counters.set(k, (c = { plane, subject, published: 0, delivered: 0 }));
    return c;
  }
}

function subscriptionInfo(s: SubscriptionState): TopicSubscriptionInfo {
  return {
    id: s.id,
    cursor: s.cursor,
    lag: s.lag,
    inFlight: s.inFlight,
    createdAt: s.createdAt,
    lastActiveAt: s.lastActiveAt,
    expiresAt: s.expiresAt,
    receiving: s.receiving,
  };
}

const key = (plane: string, subject: string): string => `${plane}\0${subject}`;
