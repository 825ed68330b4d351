import type { HistoryWindow, QueueGroupStats, QueueMessageDetail, QueueTimelineEvent, QueueViewQuery } from '../../../shared/platform-views.ts';
import type { PlatformEvent, QueueGroupCounts } from '../../platform/index.ts';
import { EventHistory, SnapshotHistory, type HistoryLimits } from './event-history.ts';
import { countersAt, groupKey as key } from './queue-replay.ts';
import type { RunLinks } from './run-links.ts';
import { previewText } from './value-preview.ts';
import { BoundedMap } from '../../../shared/bounded-map.ts';

export type QueueRecord = Omit<QueueTimelineEvent, 'run'>;
type QueuePlatformEvent = Extract<PlatformEvent, { type: `queue.${string}` }>;

interface Counters {
  published: number;
  delivered: number;
  redelivered: number;
  acked: number;
  nacked: number;
}

/** What is remembered of a message between its events. */
interface MessageInfo {
  subject: string;
  at: number;
  correlationId?: string;
  headers?: Record<string, string>;
  /** JSON text of the body, cut to BODY_CHARS. */
  body: string;
  bodyBytes: number;
  /** Per consumer group: what happened to it last, to tell why it came again. */
  last: Record<string, 'delivered' | 'nacked'>;
}

/** Header carrying a flow message's correlation id on the wire (runtime blocks/queue/wire-message.ts). */
export const CORRELATION_HEADER = 'x-correlation-id';
const BODY_CHARS = 1024;
const MAX_MESSAGES = 20_000;
const DEFAULT_LIMIT = 300;

export interface QueueTrafficOptions {
  limits: HistoryLimits;
  snapshotLimits: HistoryLimits;
  links: RunLinks;
}

/**
 * Queue traffic as the studio shows it: counters per subject and consumer group since the studio
 * started, a bounded timeline of every publish, delivery, settlement and reply (with why a
 * message came again, and the runs involved), and per-second snapshots of the counters so a
 * view can be scrubbed back.
 */
export class QueueTraffic {
  readonly history: EventHistory<QueueRecord>;
  private readonly snapshots: SnapshotHistory<QueueGroupStats[]>;
  private readonly counters = new Map<string, Counters & { subject: string; group: string }>();
  private readonly messages = new BoundedMap<string, MessageInfo>(MAX_MESSAGES);
  /** Request reply addresses to the request's message id, until the reply. */
  private readonly requests = new Map<string, string>();
  /** Set while the panel itself publishes, so its events are marked. */
  fromStudio = false;

  constructor(private readonly o: QueueTrafficOptions) {
    this.history = new EventHistory(o.limits);
    this.snapshots = new SnapshotHistory(o.snapshotLimits);
  }

  handle(e: QueuePlatformEvent): void {
    switch (e.type) {
      case 'queue.publish': {
        const headers = e.headers;
        const correlationId = headers[CORRELATION_HEADER];
        const text = JSON.stringify(e.body) ?? 'null';
        this.remember(e.messageId, {
          subject: e.subject,
          at: e.at,
          correlationId,
          headers,
          body: text.length > BODY_CHARS ? text.slice(0, BODY_CHARS) : text,
          bodyBytes: Buffer.byteLength(text),
          last: {},
        });
        for (const group of e.consumerGroups.length > 0 ? e.consumerGroups : ['']) this.count(e.subject, group).published++;
        if (e.replyTo) this.requests.set(e.replyTo, e.messageId);
        this.record({
          at: e.at,
          action: e.replyTo ? 'request' : 'publish',
          subject: e.subject,
          messageId: e.messageId,
          groups: e.consumerGroups,
          ...(correlationId ? { correlationId } : {}),
          ...(e.replyTo ? { replyTo: e.replyTo } : {}),
          ...(this.fromStudio ? { fromStudio: true } : {}),
        });
        return;
      }
      case 'queue.deliver':
      case 'queue.redeliver': {
        this.adoptUnclaimed(e.subject, e.consumerGroup);
        const c = this.count(e.subject, e.consumerGroup);
        const msg = this.messages.get(e.messageId);
        const last = msg?.last[e.consumerGroup];
        if (e.type === 'queue.deliver') c.delivered++;
        else c.redelivered++;
        if (msg) msg.last[e.consumerGroup] = 'delivered';
        this.record({
          at: e.at,
          action: e.type === 'queue.deliver' ? 'deliver' : 'redeliver',
          subject: e.subject,
          group: e.consumerGroup,
          messageId: e.messageId,
          deliveryCount: e.deliveryCount,
          ...(e.type === 'queue.redeliver' && last ? { redelivery: last === 'nacked' ? 'after nack delay' : 'after ack deadline' } : {}),
          ...this.correlationOf(msg),
        });
        return;
      }
      case 'queue.ack': {
        this.count(e.subject, e.consumerGroup).acked++;
        const msg = this.messages.get(e.messageId);
        if (msg) delete msg.last[e.consumerGroup];
        this.record({ at: e.at, action: 'ack', subject: e.subject, group: e.consumerGroup, messageId: e.messageId, ...this.correlationOf(msg) });
        return;
      }
      case 'queue.nack': {
        this.count(e.subject, e.consumerGroup).nacked++;
        const msg = this.messages.get(e.messageId);
        if (msg) msg.last[e.consumerGroup] = 'nacked';
        this.record({
          at: e.at,
          action: 'nack',
          subject: e.subject,
          group: e.consumerGroup,
          messageId: e.messageId,
          delaySeconds: e.delaySeconds,
          ...this.correlationOf(msg),
        });
        return;
      }
      case 'queue.reply': {
        const requestMessageId = this.requests.get(e.replyTo);
        this.requests.delete(e.replyTo);
        const msg = requestMessageId ? this.messages.get(requestMessageId) : undefined;
        this.record({
          at: e.at,
          action: 'reply',
          subject: e.subject,
          replyTo: e.replyTo,
          outcome: e.outcome,
          ...(requestMessageId ? { requestMessageId, messageId: requestMessageId } : {}),
          ...this.correlationOf(msg),
        });
      }
    }
  }

  /** The panel purged a subject (or one group): the timeline says so; the stored counts follow at the next read. */
  purged(subject: string, group: string | undefined, count: number): void {
    this.record({ at: Date.now(), action: 'purge', subject, ...(group !== undefined ? { group } : {}), count, fromStudio: true });
  }

  /** Counters merged with what the store holds now. */
  stats(gauges: QueueGroupCounts[]): QueueGroupStats[] {
    const out = new Map<string, QueueGroupStats>();
    for (const c of this.counters.values()) out.set(key(c.subject, c.group), { ...c, waiting: 0, inFlight: 0, delayed: 0 });
    for (const g of gauges) {
      const k = key(g.subject, g.group);
      const row = out.get(k) ?? { subject: g.subject, group: g.group, published: 0, delivered: 0, redelivered: 0, acked: 0, nacked: 0, waiting: 0, inFlight: 0, delayed: 0 };
      row.waiting = g.waiting;
      row.inFlight = g.inFlight;
      row.delayed = g.delayed;
      out.set(k, row);
    }
    return [...out.values()].sort((a, b) => a.subject.localeCompare(b.subject) || a.group.localeCompare(b.group));
  }

  /** Takes the per-second snapshot scrubbing starts from. */
  snapshot(at: number, gauges: QueueGroupCounts[]): void {
    const stats = this.stats(gauges);
    this.snapshots.record(at, this.history.lastSeq, stats, JSON.stringify(stats));
  }

  /** Counters as they were at `at` (see queue-replay.ts). */
  statsAt(at: number): QueueGroupStats[] {
    return countersAt(this.snapshots, this.history, at);
  }

  view(query: QueueViewQuery, gauges: () => QueueGroupCounts[], now: number): { at: number; live: boolean; groups: QueueGroupStats[]; timeline: QueueTimelineEvent[]; history: HistoryWindow } {
    const live = query.at == null || query.at >= now;
    const at = live ? now : query.at!;
    const groups = live ? this.stats(gauges()) : this.statsAt(at);
    const limit = Math.min(Math.max(1, query.limit ?? DEFAULT_LIMIT), 2000);
    const subject = query.subject ?? undefined;
    const group = query.group ?? undefined;
    const events =
      subject === undefined
        ? []
        : this.history.newest(limit, live ? undefined : at, (e) => e.subject === subject && (group === undefined || matchesGroup(e, group)));
    return { at, live, groups, timeline: events.map((e) => this.withRun(e)), history: this.history.window(now) };
  }

  /** Everything known about one message: its events, headers, body and runs. */
  message(subject: string, messageId: string): QueueMessageDetail | undefined {
    const events = this.history.all((e) => e.messageId === messageId && e.subject === subject).map((e) => this.withRun(e));
    const msg = this.messages.get(messageId);
    if (!msg && events.length === 0) return undefined;
    const correlationId = msg?.correlationId ?? events.find((e) => e.correlationId)?.correlationId;
    const detail: QueueMessageDetail = { subject, messageId, events, runs: [] };
    if (correlationId) {
      detail.correlationId = correlationId;
      const seen = new Set<string>();
      for (const e of events) {
        if (!e.run || seen.has(e.run.runId)) continue;
        seen.add(e.run.runId);
        detail.runs.push(e.run);
      }
    }
    if (msg) {
      if (msg.headers) detail.headers = msg.headers;
      detail.body = previewText(msg.body, msg.bodyBytes, msg.bodyBytes > Buffer.byteLength(msg.body));
    }
    return detail;
  }

  private withRun(e: QueueRecord): QueueTimelineEvent {
    const links = this.o.links;
    const group = e.group || undefined;
    const publishedAt = e.messageId ? this.messages.get(e.messageId)?.at : undefined;
    const run =
      e.action === 'publish' || e.action === 'request'
        ? links.producer(e.correlationId, e.at)
        : e.action === 'deliver' || e.action === 'redeliver'
          ? links.consumerAfter(e.correlationId, group, e.at, publishedAt)
          : e.action === 'ack' || e.action === 'nack' || e.action === 'reply'
            ? links.consumerBefore(e.correlationId, group, e.at, publishedAt)
            : undefined;
    return run ? { ...e, run } : e;
  }

  private record(e: Omit<QueueRecord, 'seq'>): void {
    this.history.push(e);
  }

  private correlationOf(msg: MessageInfo | undefined): { correlationId?: string } {
    return msg?.correlationId ? { correlationId: msg.correlationId } : {};
  }

  private remember(messageId: string, info: MessageInfo): void {
    this.messages.set(messageId, info);
  }

  private count(subject: string, group: string): Counters {
    const k = key(subject, group);
    let c = this.counters.get(k);
    if (!c) this.counters.set(k, (c = { subject, group, published: 0, delivered: 0, redelivered: 0, acked: 0, nacked: 0 }));
    return c;
  }

  /**
   * The first consumer group of a subject takes over what was published before any group
   * existed (the store reassigns those messages), so their count moves with them.
   */
  private adoptUnclaimed(subject: string, group: string): void {
    if (this.counters.has(key(subject, group))) return;
    const unclaimed = this.counters.get(key(subject, ''));
    if (!unclaimed) return;
    this.counters.delete(key(subject, ''));
    this.count(subject, group).published += unclaimed.published;
  }
}

function matchesGroup(e: QueueRecord, group: string): boolean {
  if (e.group !== undefined) return e.group === group;
  if (e.groups !== undefined) return e.groups.length === 0 || e.groups.includes(group);
  return true;
}
